import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import type { ToolOutput } from '../protocol/tool-output';
import type { EndpointSettings } from '../settings/endpoint-settings';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { replayLog } from '../state/reduce-events';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
import { retriedCall, retryNote } from './retried-call';
import type { RuntimeClient } from './runtime-client';
import { startTurn } from './turn-driver';

const settings: EndpointSettings = {
  kind: 'openai-compatible',
  label: 'test',
  baseUrl: 'http://127.0.0.1:1/v1',
  model: 'scripted-model',
  apiKey: 'test-key',
  scripted: false,
};
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const finish = (unified: 'stop' | 'tool-calls') =>
  ({ type: 'finish', usage, finishReason: { unified, raw: unified } }) as const;
const textStep = (text: string): LanguageModelV3StreamPart[] => [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 'text' },
  { type: 'text-delta', id: 'text', delta: text },
  { type: 'text-end', id: 'text' },
  finish('stop'),
];
const callStep: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'getParameters', input: '{}' },
  finish('tool-calls'),
];

function setup() {
  const store = new MemoryEventStore();
  const outputs: ToolOutput[] = [
    { ok: false, error: 'No target is open.' },
    { ok: true, values: { speed: 8 } },
  ];
  const executeTool = vi.fn(async (): Promise<ToolOutput> => outputs.shift() ?? { ok: true });
  const runtime = testRuntime({ store, executeTool, newId: countingIds('runtime-'), longPollMs: 5 });
  const client: RuntimeClient = {
    appendEvents: async (sessionId, drafts) => void (await runtime.appendFromClient(sessionId, drafts)),
    executeTool: (request) => runtime.executeTool(request),
    retryToolCall: (request) => runtime.retryToolCall(request),
    takeSteers: (sessionId, turnId) => runtime.takeSteers(sessionId, turnId),
    submitCommand: async () => undefined,
    ownTurn: () => undefined,
    releaseTurn: () => undefined,
  };
  const steps = [callStep, textStep('It failed.'), textStep('Now it works.'), textStep('You are welcome.')];
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async () => ({ stream: convertArrayToReadableStream(steps[model.doStreamCalls.length - 1]!) }),
  });
  const state = async () => replayLog('s', await store.read('s', 0));
  let ids = 0;
  const turn = async (text: string, extra: Partial<Parameters<typeof startTurn>[0]> = {}) =>
    startTurn({ client, settings, model, state: await state(), text, newId: () => `panel-${++ids}`, ...extra }).done;
  return { store, model, executeTool, state, turn };
}

const prompt = (call: { prompt: LanguageModelV3CallOptions['prompt'] }) => call.prompt;

describe('a turn that retries a failed call', () => {
  it('runs the call again before its first request, which carries the new result; later requests replay it exactly', async () => {
    const { model, executeTool, state, turn, store } = setup();
    expect(await turn('Read the parameters')).toBe('stop');
    const failed = (await state()).toolCalls['call-1']!;
    expect(failed.status).toBe('failed');
    expect(await turn(retryNote(failed), { retry: retriedCall(failed, 'attempt-2') })).toBe('stop');
    expect(executeTool).toHaveBeenCalledTimes(2);
    const retryRequest = prompt(model.doStreamCalls[2]!);
    const toolMessages = retryRequest.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content[0])).toMatchObject([
      { toolCallId: 'call-1', output: { type: 'json', value: { ok: false, error: 'No target is open.' } } },
      { toolCallId: 'attempt-2', output: { type: 'json', value: { ok: true, values: { speed: 8 } } } },
    ]);
    expect(retryRequest.at(-3)).toMatchObject({ role: 'user', content: [{ text: retryNote(failed) }] });
    expect(await turn('Thanks')).toBe('stop');
    const next = prompt(model.doStreamCalls[3]!);
    // The retry turn's request is the next turn's prefix (without cache marks): the history replays it exactly.
    const plain = (messages: typeof next) =>
      JSON.parse(JSON.stringify(messages, (key, value) => (key === 'providerOptions' ? undefined : value)));
    expect(plain(next.slice(0, retryRequest.length))).toEqual(plain(retryRequest));
    const retried = (await store.read('s', 0)).filter((event) => event.type === 'tool/retried');
    expect(retried).toHaveLength(1);
    const after = await state();
    expect(after.turns[retried[0]!.turnId]).toMatchObject({ retriesToolCall: 'call-1', status: 'completed' });
  });
});
