import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { runTestTurn } from '../../tests/support/run-test-turn';
import { createLanguageModel } from './create-language-model';
import { scriptedEndpointSettings } from '../../tests/support/scripted-endpoint-settings';
import { UIMessageChunkMapper } from './ui-message-chunk-mapper';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

interface SentMessage {
  role: string;
  metadata?: unknown;
  parts: { type: string; state?: string; output?: unknown; text?: string }[];
}

async function runChat(continuation: boolean) {
  server.setScript({
    turns: [{ steps: [{ toolCalls: [{ name: 'getParameters', arguments: {} }] }, { text: 'Speed is 8 m/s.' }] }],
  });
  server.clearRequests();
  const history = [{ role: 'user' as const, content: 'How fast?' }];
  const { outcome, drafts } = await runTestTurn({
    model: createLanguageModel(
      { ...scriptedEndpointSettings('ai-sdk-chat', server.origin, 'chat-key'), kind: 'ai-sdk-chat', continuation },
      { chatId: 'chat-7' },
    ),
    messages: history,
    executeTool: async () => ({ ok: true, values: { speed: 8 } }),
  });
  const bodies = server.requests.map((request) => request.body as { id: string; messages: SentMessage[] });
  return { outcome, drafts, bodies, history, headers: server.requests.map((request) => request.headers) };
}

describe('an AI SDK chat server as the model', () => {
  it('sends the conversation as useChat would and runs the tool the server declared in the browser', async () => {
    const { outcome, drafts, bodies, headers } = await runChat(false);
    expect(outcome).toBe('stop');
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({
      id: 'chat-7',
      trigger: 'submit-message',
      messages: [{ role: 'system' }, { role: 'user', parts: [{ type: 'text', text: 'How fast?' }] }],
    });
    expect(headers[0].authorization).toBe('Bearer chat-key');
    const [, user, assistant] = bodies[1].messages;
    expect(user.role).toBe('user');
    expect(assistant).toMatchObject({
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-getParameters',
          state: 'output-available',
          input: {},
          output: { ok: true, values: { speed: 8 } },
        },
      ],
    });
    expect(bodies[1].messages).toHaveLength(3);
    expect(drafts.filter((draft) => draft.type === 'assistant/completed')).toMatchObject([
      { data: { text: 'Speed is 8 m/s.' } },
    ]);
  });

  it('appends an invisible continuation turn after tool results when the server needs a user turn, never in the history', async () => {
    const { outcome, bodies, history, drafts } = await runChat(true);
    expect(outcome).toBe('stop');
    expect(bodies[0].messages.at(-1)).toMatchObject({ role: 'user', parts: [{ type: 'text', text: 'How fast?' }] });
    expect(bodies[1].messages.at(-1)).toEqual({
      id: expect.any(String),
      role: 'user',
      metadata: { continuation: true },
      parts: [{ type: 'text', text: 'Continue.' }],
    });
    expect(history).toEqual([{ role: 'user', content: 'How fast?' }]);
    expect(JSON.stringify(drafts)).not.toContain('Continue.');
    expect(drafts.filter((draft) => draft.type === 'assistant/completed')).toMatchObject([
      { data: { text: 'Speed is 8 m/s.' } },
    ]);
  });
});

describe('UIMessageChunkMapper', () => {
  const ok = (value: object) => ({ success: true as const, value: value as never });

  it('releases only the calls the browser must run, at finish, and previews a call sent whole', () => {
    const mapper = new UIMessageChunkMapper();
    const parts = [
      ok({ type: 'tool-input-available', toolCallId: 'a', toolName: 'getParameters', input: { target: 'x' } }),
      ok({
        type: 'tool-input-available',
        toolCallId: 'b',
        toolName: 'search',
        input: { q: 'y' },
        providerExecuted: true,
      }),
      ok({ type: 'tool-input-available', toolCallId: 'c', toolName: 'lookup', input: {} }),
      ok({ type: 'tool-output-available', toolCallId: 'c', output: 'done on the server' }),
      ok({ type: 'finish' }),
    ].flatMap((chunk) => mapper.map(chunk));
    expect(parts.filter((part) => part.type === 'tool-input-delta')).toEqual([
      { type: 'tool-input-delta', id: 'a', delta: '{"target":"x"}' },
      { type: 'tool-input-delta', id: 'b', delta: '{"q":"y"}' },
      { type: 'tool-input-delta', id: 'c', delta: '{}' },
    ]);
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual([
      { type: 'tool-call', toolCallId: 'a', toolName: 'getParameters', input: '{"target":"x"}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
    expect(mapper.end()).toEqual([]);
  });

  it('turns error and abort chunks and a missing finish into error parts', () => {
    expect(new UIMessageChunkMapper().map(ok({ type: 'error', errorText: 'boom' }))).toEqual([
      { type: 'error', error: new Error('boom') },
    ]);
    expect(new UIMessageChunkMapper().map(ok({ type: 'abort', reason: 'user left' }))).toEqual([
      { type: 'error', error: new Error('The server aborted the reply: user left') },
    ]);
    const unfinished = new UIMessageChunkMapper();
    unfinished.map(ok({ type: 'text-delta', id: 't', delta: 'half' }));
    expect(unfinished.end()).toMatchObject([{ type: 'error', error: { name: 'AI_NoOutputGeneratedError' } }]);
  });
});
