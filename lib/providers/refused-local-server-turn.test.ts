import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import { runTestTurn } from '../../tests/support/run-test-turn';
import { createLanguageModel } from './create-language-model';
import { OLLAMA_ORIGINS_ADVICE } from './loopback-url';

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function turnAgainst(baseUrl: string, fetchFunction?: typeof fetch): Promise<AgentEventDraft[]> {
  const { drafts } = await runTestTurn({
    model: createLanguageModel(
      { kind: 'openai-compatible', label: 'Ollama', baseUrl, model: 'llama3.1', apiKey: '', scripted: false },
      fetchFunction ? { fetch: fetchFunction } : {},
    ),
    messages: [{ role: 'user', content: 'Make the particles faster.' }],
    wait: async () => undefined,
    endpointUrl: baseUrl,
  });
  return drafts;
}

function streamError(drafts: AgentEventDraft[]): { message: string; code: string } | undefined {
  const draft = drafts.find((candidate) => candidate.type === 'stream/error');
  return draft?.type === 'stream/error' ? draft.data : undefined;
}

describe('a turn against a local server that refuses the extension', () => {
  it('ends with the HTTP status and tells an Ollama user which origins to allow', async () => {
    const refusing = createServer((_request, response) => {
      response.writeHead(403);
      response.end();
    });
    const port = await listening(refusing);
    try {
      const error = streamError(await turnAgainst(`http://localhost:${port}/v1`));
      expect(error?.code).toBe('http');
      expect(error?.message).toMatch(/^HTTP 403/);
      expect(error?.message).toContain(`The local server refused the extension. ${OLLAMA_ORIGINS_ADVICE}`);
    } finally {
      refusing.close();
    }
  });

  it('says it could not reach a local server that is not running, with the same advice', async () => {
    const closed = createServer();
    const port = await listening(closed);
    await new Promise((resolve) => closed.close(resolve));
    const error = streamError(await turnAgainst(`http://127.0.0.1:${port}/v1`));
    expect(error?.code).toBe('unreachable');
    expect(error?.message).toContain(`Check that the server is running. ${OLLAMA_ORIGINS_ADVICE}`);
  });

  it('gives no Ollama advice for a remote host that refuses', async () => {
    const refusing = createServer((_request, response) => {
      response.writeHead(403);
      response.end();
    });
    const port = await listening(refusing);
    try {
      // Not a loopback name; the fetch below delivers it to the local refusing server.
      const remote = 'http://models.example.test/v1';
      const drafts = await turnAgainst(remote, (input, init) =>
        fetch(String(input).replace('http://models.example.test', `http://127.0.0.1:${port}`), init),
      );
      const error = streamError(drafts);
      expect(error?.message).toMatch(/^HTTP 403/);
      expect(error?.message).not.toContain('OLLAMA_ORIGINS');
    } finally {
      refusing.close();
    }
  });
});
