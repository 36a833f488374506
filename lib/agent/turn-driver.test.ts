import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { EndpointSettings } from '../settings/endpoint-settings';
import { initialClientState, type BranchTree, type ClientState, type TurnState } from '../state/client-state';
import { emptyBranchTree, withStartedTurn } from '../state/branch-tree';
import type { RuntimeClient, TurnCommand } from './runtime-client';
import { startTurn, type TurnRequest } from './turn-driver';

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

function textStep(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 'text' },
    { type: 'text-delta', id: 'text', delta: text },
    { type: 'text-end', id: 'text' },
    { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
  ];
}

function toolStep(toolCallId: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId, toolName: 'getParameters', input: '{}' },
    { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
  ];
}

/** A model that answers its calls with these steps in order, or with whatever `onCall` returns. */
function scriptedModel(
  steps: LanguageModelV3StreamPart[][],
  onCall?: (options: LanguageModelV3CallOptions) => ReadableStream<LanguageModelV3StreamPart> | undefined,
) {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async (options: LanguageModelV3CallOptions) => ({
      stream: onCall?.(options) ?? convertArrayToReadableStream(steps[model.doStreamCalls.length - 1] ?? textStep('')),
    }),
  });
  return model;
}

/** A stream that sends nothing until the call is aborted, as a slow model would. */
function silentUntilAborted(options: LanguageModelV3CallOptions): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start: (controller) => {
      const signal = options.abortSignal;
      if (signal?.aborted) controller.error(signal.reason);
      signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
    },
  });
}

function deferred<T = void>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Records every request in order; each method can be replaced per test. */
function fakeClient(overrides: Partial<RuntimeClient> = {}) {
  const log: string[] = [];
  const appended: AgentEventDraft[] = [];
  const commands: TurnCommand[] = [];
  const client: RuntimeClient = {
    appendEvents: async (_sessionId, drafts) => {
      log.push(`append ${drafts.map((draft) => draft.type).join(',')}`);
      appended.push(...drafts);
    },
    executeTool: async (request) => {
      log.push(`execute ${request.toolCallId}`);
      return { status: 'completed', output: { ok: true } };
    },
    takeSteers: async () => [],
    submitCommand: async (command) => {
      log.push(`submit ${command.kind}`);
      commands.push(command);
    },
    ownTurn: (sessionId, turnId) => log.push(`own ${sessionId}/${turnId}`),
    releaseTurn: (sessionId, turnId) => log.push(`release ${sessionId}/${turnId}`),
    ...overrides,
  };
  return { client, log, appended, commands };
}

function turn(turnId: string, userText: string, status: TurnState['status']): TurnState {
  return { turnId, userItemId: `${turnId}-user`, userText, status, startedAt: 0, entries: [], errors: [] };
}

function run(request: Partial<TurnRequest> & Pick<TurnRequest, 'client' | 'model'>) {
  let counter = 0;
  return startTurn({
    settings,
    state: initialClientState('s'),
    text: 'Hello',
    newId: () => `id-${++counter}`,
    now: () => counter,
    ...request,
  });
}

function promptTexts(options: LanguageModelV3CallOptions): string[] {
  return options.prompt
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')));
}

/** The branch tree of turns that each followed the one before. */
function oneBranch(...turnIds: string[]): BranchTree {
  return turnIds.reduce((tree, turnId) => withStartedTurn(tree, turnId, undefined, undefined), emptyBranchTree());
}

describe('startTurn', () => {
  it('owns and records the turn (a first turn also creates the session) before the model runs', async () => {
    const { client, log } = fakeClient();
    let seenAtFirstCall: string[] = [];
    const model = scriptedModel([], () => {
      seenAtFirstCall = [...log];
      return convertArrayToReadableStream(textStep('Hi.'));
    });
    const handle = run({ client, model });
    await handle.recorded;
    expect(await handle.done).toBe('stop');
    expect(seenAtFirstCall.slice(0, 2)).toEqual([`own s/${handle.turnId}`, 'append session/created,turn/started']);
  });

  it('rejects `recorded` with the reason when the turn cannot be written, and the turn fails the same way', async () => {
    const { client } = fakeClient({ appendEvents: async () => Promise.reject(new Error('QuotaExceededError')) });
    const handle = run({ client, model: scriptedModel([textStep('Hi.')]) });
    await expect(handle.recorded).rejects.toThrow(/no storage space left/);
    await expect(handle.done).rejects.toThrow(/no storage space left/);
  });

  it('asks the runtime again while a tool call is waiting for the user, and gives the model the settled output', async () => {
    const answers = [
      { status: 'waiting' as const, output: null },
      { status: 'waiting' as const, output: null },
      { status: 'completed' as const, output: { ok: true, speed: 12 } },
    ];
    const { client, log } = fakeClient({
      executeTool: async (request) => {
        log.push(`execute ${request.toolCallId}`);
        return answers.shift()!;
      },
    });
    const model = scriptedModel([toolStep('call-1'), textStep('Done.')]);
    const handle = run({ client, model });
    expect(await handle.done).toBe('stop');
    expect(log.filter((entry) => entry.startsWith('execute'))).toEqual([
      'execute call-1',
      'execute call-1',
      'execute call-1',
    ]);
    const toolMessage = model.doStreamCalls[1].prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toMatchObject([
      { type: 'tool-result', toolCallId: 'call-1', output: { type: 'json', value: { ok: true, speed: 12 } } },
    ]);
  });

  it('stop() aborts the turn and submits a cancel under a new command id', async () => {
    const { client, appended, commands } = fakeClient();
    const handle = run({ client, model: scriptedModel([], silentUntilAborted) });
    await handle.recorded;
    handle.stop();
    expect(await handle.done).toBe('aborted');
    expect(commands).toHaveLength(1);
    const [cancel] = commands;
    expect(cancel).toMatchObject({ kind: 'cancel', sessionId: 's', turnId: handle.turnId });
    expect(appended.at(-1)).toMatchObject({ type: 'turn/aborted', commandId: cancel.commandId });
    const startedData = appended.find((draft) => draft.type === 'turn/started')?.data;
    expect([handle.turnId, startedData && 'userItemId' in startedData && startedData.userItemId]).not.toContain(
      cancel.commandId,
    );
  });

  it('stop(commandId) aborts under that cancel without submitting another', async () => {
    const { client, appended, commands } = fakeClient();
    const handle = run({ client, model: scriptedModel([], silentUntilAborted) });
    await handle.recorded;
    handle.stop('cancel-from-elsewhere');
    expect(await handle.done).toBe('aborted');
    expect(commands).toEqual([]);
    expect(appended.at(-1)).toMatchObject({ type: 'turn/aborted', commandId: 'cancel-from-elsewhere' });
  });

  it('stop() does not wait for a tool request still in flight', async () => {
    const requested = deferred();
    const { client } = fakeClient({
      executeTool: () => {
        requested.resolve();
        return new Promise(() => undefined);
      },
    });
    const handle = run({ client, model: scriptedModel([toolStep('call-1')]) });
    await requested.promise;
    handle.stop();
    expect(await handle.done).toBe('aborted');
  });

  it('steer() sends what was emitted before it, then submits a steer command', async () => {
    const started = deferred();
    const release = deferred();
    const { client, log, commands } = fakeClient();
    const append = client.appendEvents;
    client.appendEvents = async (sessionId, drafts) => {
      started.resolve();
      await release.promise;
      return append(sessionId, drafts);
    };
    const handle = run({ client, model: scriptedModel([], silentUntilAborted) });
    await started.promise;
    const steered = handle.steer('Faster, please.');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(commands).toEqual([]);
    release.resolve();
    await steered;
    expect(log.indexOf('submit steer')).toBeGreaterThan(log.indexOf('append session/created,turn/started'));
    expect(commands).toEqual([
      { kind: 'steer', sessionId: 's', turnId: handle.turnId, commandId: expect.any(String), text: 'Faster, please.' },
    ]);
    handle.stop();
    await handle.done;
  });

  it('leaves the retried turn out of the model history and records what it retries', async () => {
    const state: ClientState = {
      ...initialClientState('s'),
      turnOrder: ['first', 'failed'],
      turns: { first: turn('first', 'One.', 'completed'), failed: turn('failed', 'Two.', 'interrupted') },
      branches: oneBranch('first', 'failed'),
    };
    const { client, appended } = fakeClient();
    const model = scriptedModel([textStep('Done.')]);
    const handle = run({ client, model, state, text: 'Two.', retryOf: 'failed' });
    expect(await handle.done).toBe('stop');
    expect(promptTexts(model.doStreamCalls[0])).toEqual(['One.', 'Two.']);
    expect(appended[0]).toMatchObject({ type: 'turn/started', data: { text: 'Two.', retryOf: 'failed' } });
    expect(appended.some((draft) => draft.type === 'session/created')).toBe(false);
  });

  it('keeps every earlier turn in the history when it retries nothing', async () => {
    const state: ClientState = {
      ...initialClientState('s'),
      turnOrder: ['first', 'failed'],
      turns: { first: turn('first', 'One.', 'completed'), failed: turn('failed', 'Two.', 'interrupted') },
      branches: oneBranch('first', 'failed'),
    };
    const model = scriptedModel([textStep('Done.')]);
    await run({ client: fakeClient().client, model, state, text: 'Three.' }).done;
    expect(promptTexts(model.doStreamCalls[0])).toEqual(['One.', 'Two.', 'Three.']);
  });

  it('releases the turn once it has ended', async () => {
    const { client, log } = fakeClient();
    const handle = run({ client, model: scriptedModel([textStep('Hi.')]) });
    await handle.done;
    expect(log.filter((entry) => entry.startsWith('own') || entry.startsWith('release'))).toEqual([
      `own s/${handle.turnId}`,
      `release s/${handle.turnId}`,
    ]);
    expect(log.at(-1)).toBe(`release s/${handle.turnId}`);
  });

  it('releases the turn when it fails', async () => {
    const { client, log } = fakeClient({ appendEvents: async () => Promise.reject(new Error('disk')) });
    const handle = run({ client, model: scriptedModel([textStep('Hi.')]) });
    await handle.done.catch(() => undefined);
    expect(log.at(-1)).toBe(`release s/${handle.turnId}`);
  });
});
