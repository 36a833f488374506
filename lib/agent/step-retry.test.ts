import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import type { ToolOutput } from '../protocol/tool-output';
import type { EndpointSettings } from '../settings/endpoint-settings';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { replayLog } from '../state/reduce-events';
import { stepRetryRequest } from '../panel/turn-request';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
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
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'setParameter', input: '{"param":"speed","value":12}' },
  finish('tool-calls'),
];
/** A request that fails mid-stream: some text, then the connection drops (no HTTP status, so the loop does not retry it). */
const droppedStep: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 'text' },
  { type: 'text-delta', id: 'text', delta: 'The speed is' },
  { type: 'error', error: new TypeError('network error') },
];

function setup() {
  const store = new MemoryEventStore();
  const executeTool = vi.fn(async (): Promise<ToolOutput> => ({ ok: true, applied: { speed: 12 } }));
  const runtime = testRuntime({ store, executeTool, newId: countingIds('runtime-'), longPollMs: 5 });
  const client: RuntimeClient = {
    appendEvents: async (sessionId, drafts) => void (await runtime.appendFromClient(sessionId, drafts)),
    executeTool: (request) => runtime.executeTool(request),
    takeSteers: (sessionId, turnId) => runtime.takeSteers(sessionId, turnId),
    submitCommand: async () => undefined,
    ownTurn: () => undefined,
    releaseTurn: () => undefined,
  };
  const steps = [callStep, droppedStep, textStep('The speed is 12.'), textStep('You are welcome.')];
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
/** The prompt without its cache marks, which move to the newest messages with every request. */
const plain = (messages: LanguageModelV3CallOptions['prompt']) =>
  JSON.parse(JSON.stringify(messages, (key, value) => (key === 'providerOptions' ? undefined : value))) as unknown;

describe('Retry step: a turn that runs a failed model request again', () => {
  it('sends the failed request again (with the tool result obtained before it), runs no tool again, and completes', async () => {
    const { model, executeTool, state, turn, store } = setup();
    expect(await turn('Set the speed to 12')).toBe('interrupted');
    const failedTurnId = (await state()).turnOrder[0]!;
    const request = stepRetryRequest(await state(), failedTurnId);
    expect(request?.retryStep?.turnId).toBe(failedTurnId);

    expect(await turn(request!.text, { retryStep: request!.retryStep! })).toBe('stop');
    expect(executeTool).toHaveBeenCalledTimes(1);
    const failedRequest = prompt(model.doStreamCalls[1]!);
    const retriedRequest = prompt(model.doStreamCalls[2]!);
    expect(plain(retriedRequest)).toEqual(plain(failedRequest));
    const toolMessages = retriedRequest.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content[0])).toMatchObject([
      { toolCallId: 'call-1', output: { type: 'json', value: { ok: true, applied: { speed: 12 } } } },
    ]);
    expect(retriedRequest.filter((message) => message.role === 'user')).toHaveLength(1);

    const after = await state();
    const retryTurnId = after.turnOrder[1]!;
    expect(after.turns[retryTurnId]).toMatchObject({
      userText: '',
      status: 'completed',
      retriesStep: request!.retryStep,
    });
    expect(after.branches.parents[retryTurnId]).toBe(failedTurnId);
    const failedAttempt = request!.retryStep!.attemptId;
    const attempts = (await store.read('s', 0)).filter((event) => event.type === 'step/started');
    expect(attempts.map((event) => event.attemptId)).toHaveLength(3);
    expect(attempts.at(-1)!.attemptId).not.toBe(failedAttempt);
    expect(Object.values(after.items).find((item) => item.attemptId === failedAttempt)?.status).toBe('interrupted');

    // The next turn's history replays the retry exactly: its request is the retried one, the answer, the message.
    expect(await turn('Thanks')).toBe('stop');
    const next = prompt(model.doStreamCalls[3]!);
    expect(plain(next.slice(0, retriedRequest.length))).toEqual(plain(retriedRequest));
    expect(next.slice(retriedRequest.length).map((message) => message.role)).toEqual(['assistant', 'user']);
    expect(executeTool).toHaveBeenCalledTimes(1);
  });
});
