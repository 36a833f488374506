import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { listModels } from './list-models';
import { endpointFormats, scriptedEndpointSettings } from '../../tests/support/scripted-endpoint-settings';
import { testConnection } from './test-connection';

let server: ScriptedModelServer;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

describe('testConnection against the scripted server', () => {
  it.each(endpointFormats)('%s: lists the models where the API can, and gets a reply', async (format) => {
    server.setScript({ turns: [{ steps: [{ text: 'OK' }] }] });
    const report = await testConnection(scriptedEndpointSettings(format, server.origin));
    expect(report.ok).toBe(true);
    const replyCheck = report.checks.at(-1);
    expect(replyCheck).toMatchObject({ name: 'reply', ok: true });
    expect(replyCheck?.detail).toMatch(/^"scripted-model" answered "OK…" in \d+ ms\.$/);
    if (format === 'ai-sdk-chat') {
      expect(report.checks).toHaveLength(1);
      expect(report.models).toBeUndefined();
    } else {
      expect(report.checks[0]).toEqual({
        name: 'models',
        ok: true,
        detail: 'Listed 1 model; "scripted-model" is among them.',
      });
      expect(report.models).toEqual(['scripted-model']);
    }
  });

  it('reports the HTTP status and the provider message of a refused request', async () => {
    server.setScript({ turns: [{ steps: [{ error: { status: 401, message: 'invalid x-api-key' } }] }] });
    const report = await testConnection(scriptedEndpointSettings('anthropic', server.origin));
    expect(report.ok).toBe(false);
    expect(report.checks.at(-1)).toEqual({
      name: 'reply',
      ok: false,
      detail: 'The model request failed: HTTP 401: invalid x-api-key',
    });
  });

  it('says that an exhausted quota will not come back by retrying', async () => {
    server.setScript({ turns: [{ steps: [{ error: { status: 429, quotaExhausted: true } }] }] });
    const report = await testConnection(scriptedEndpointSettings('gemini', server.origin));
    expect(report.checks.at(-1)?.detail).toMatch(
      /^The model request failed: Quota exhausted \(HTTP 429: You exceeded your current quota/,
    );
  });

  it("tells an Ollama user what to set when a local server refuses the extension's origin", async () => {
    const refusing = createServer((_request, response) => {
      response.writeHead(403);
      response.end();
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const origin = `http://localhost:${(refusing.address() as AddressInfo).port}`;
    try {
      const report = await testConnection({
        kind: 'openai-compatible',
        label: 'Ollama',
        baseUrl: `${origin}/v1`,
        model: 'llama3.1',
        apiKey: '',
        scripted: false,
      });
      expect(report.checks[0]).toMatchObject({ name: 'models', ok: false });
      expect(report.checks[0].detail).toContain('Listing models failed: HTTP 403');
      for (const check of report.checks)
        expect(check.detail).toContain('OLLAMA_ORIGINS=chrome-extension://*,moz-extension://*');
    } finally {
      refusing.close();
    }
  });

  it('says where it could not connect, with the Ollama advice for a local address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const report = await testConnection({
      kind: 'openai-compatible',
      label: 'Nothing',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'llama3.1',
      apiKey: '',
      scripted: false,
    });
    expect(report.ok).toBe(false);
    expect(report.checks[0].detail).toMatch(
      new RegExp(
        `^Listing models failed: Could not reach http://127\\.0\\.0\\.1:${port}: fetch failed\\. Check that the server is running\\. If this is Ollama`,
      ),
    );
    expect(report.checks[1].detail).toMatch(
      new RegExp(
        `^The model request failed: Could not reach the endpoint: Cannot connect to API: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\. Check that the server is running`,
      ),
    );
  });
});

describe('listModels', () => {
  it('reads the Gemini list without the models/ prefix, and the Anthropic list with its headers', async () => {
    server.clearRequests();
    expect(await listModels(scriptedEndpointSettings('gemini', server.origin))).toEqual({
      ok: true,
      models: ['scripted-model'],
      // Gemini's list gives each model's input and output token limits: their sum is its window.
      contextWindows: { 'scripted-model': 1_114_112 },
    });
    expect(await listModels(scriptedEndpointSettings('anthropic', server.origin, 'sk-ant'))).toEqual({
      ok: true,
      models: ['scripted-model'],
    });
    expect(
      server.requests.map((request) => [
        request.path,
        request.headers['x-goog-api-key'] ?? request.headers['x-api-key'],
      ]),
    ).toEqual([
      ['/v1beta/models?pageSize=1000', 'test-key'],
      ['/v1/models?limit=1000', 'sk-ant'],
    ]);
    expect(server.requests[1].headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  });
});
