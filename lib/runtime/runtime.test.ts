import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent, type AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { itemOf } from '../state/client-state';
import { replayLog } from '../state/reduce-events';
import type { ToolOutput } from '../protocol/tool-output';
import { testRuntime, tickingClock } from '../../tests/support/test-runtime';
import type { EventStore } from '../session-log/event-store';
import { MemoryEventStore } from '../session-log/memory-event-store';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';

const sessionId = 'session-1';
const step = { sessionId, turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };

function setup(
  store: EventStore = new MemoryEventStore(),
  executor?: (toolName: string, input: JsonValue) => Promise<ToolOutput>,
) {
  const executeTool = vi.fn(executor ?? (async (): Promise<ToolOutput> => ({ ok: true, speed: 12 })));
  const runtime = testRuntime({ store, executeTool, now: tickingClock(1_000, 5) });
  return { store, runtime, executeTool };
}

const turnStarted = (turnId = 'turn-1'): AgentEventDraft => ({
  type: 'turn/started',
  sessionId,
  turnId,
  time: 1,
  data: { userItemId: `user-${turnId}`, text: 'Set the speed' },
});
const stepStarted = (): AgentEventDraft => ({ type: 'step/started', ...step, time: 2, data: { index: 0 } });
const delta = (
  index: number,
  text: string,
  itemId = 'item-1',
  kind: 'assistant' | 'reasoning' = 'assistant',
): AgentEventDraft => ({
  type: kind === 'assistant' ? 'assistant/delta' : 'reasoning/delta',
  ...step,
  itemId,
  time: 3,
  data: { index, text },
});
const note = (message: string): AgentEventDraft => ({
  type: 'notification',
  sessionId,
  notificationId: `note-${message}`,
  time: 4,
  data: { level: 'info', message },
});
const toolRequest = (toolCallId = 'call-1'): ToolExecutionRequest => ({
  sessionId,
  turnId: 'turn-1',
  stepId: 'step-1',
  toolCallId,
  toolName: 'setParameter',
  input: { name: 'speed', value: 12 },
});

function stamped(seq: number, draft: AgentEventDraft): AgentEvent {
  return { ...draft, schemaVersion: AGENT_EVENT_SCHEMA_VERSION, seq, durable: true } as AgentEvent;
}

describe('Runtime.append', () => {
  it('gives durable events strictly increasing seqs and transient events the seq they follow', async () => {
    const { runtime, store } = setup();
    const seen: AgentEvent[] = [];
    await runtime.subscribe(sessionId, (event) => seen.push(event));
    expect(await runtime.append(sessionId, [turnStarted(), stepStarted(), delta(0, 'a'), delta(1, 'b')])).toBe(2);
    expect(await runtime.append(sessionId, [note('x'), delta(2, 'c')])).toBe(3);
    expect(seen.map((event) => [event.type, event.seq, event.durable])).toEqual([
      ['turn/started', 1, true],
      ['step/started', 2, true],
      ['assistant/delta', 2, false],
      ['assistant/delta', 2, false],
      ['notification', 3, true],
      ['assistant/delta', 3, false],
    ]);
    expect((await store.read(sessionId, 0)).map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  it('rejects a batch with an invalid draft, naming the event index and field, and writes nothing of it', async () => {
    const { runtime, store } = setup();
    const seen: AgentEvent[] = [];
    await runtime.subscribe(sessionId, (event) => seen.push(event));
    const broken = { type: 'assistant/completed', ...step, itemId: 'item-1', time: 5, data: { txt: 'oops' } };
    await expect(runtime.append(sessionId, [turnStarted(), stepStarted(), broken])).rejects.toThrow(
      /^Event 2 \(assistant\/completed\) rejected: data\.text: /,
    );
    expect(await store.read(sessionId, 0)).toEqual([]);
    expect(await store.lastSeq(sessionId)).toBe(0);
    expect(seen).toEqual([]);
    expect(await runtime.append(sessionId, [turnStarted()])).toBe(1);
  });

  it('names the field for an unknown type, a missing id, another session and a non-object', async () => {
    const { runtime } = setup();
    await expect(
      runtime.append(sessionId, [turnStarted(), { type: 'turn/exploded', sessionId, time: 1, data: {} }]),
    ).rejects.toThrow(/^Event 1 \(turn\/exploded\) rejected: type: /);
    await expect(
      runtime.append(sessionId, [{ type: 'turn/completed', sessionId, time: 1, data: { reason: 'stop' } }]),
    ).rejects.toThrow(/^Event 0 \(turn\/completed\) rejected: turnId: /);
    await expect(runtime.append(sessionId, [{ ...turnStarted(), sessionId: 'session-2' }])).rejects.toThrow(
      /^Event 0 \(turn\/started\) rejected: sessionId: /,
    );
    await expect(runtime.append(sessionId, [turnStarted(), null])).rejects.toThrow(/^Event 1 \(.*\) rejected: /);
    expect(await runtime.read(sessionId, 0)).toEqual([]);
  });

  it('refuses a client batch that holds an event only the runtime writes, and records none of it', async () => {
    const { runtime } = setup();
    const forged: AgentEventDraft = {
      type: 'tool/completed',
      sessionId,
      turnId: 'turn-1',
      toolCallId: 'call-1',
      time: 2,
      data: { output: { ok: true }, durationMs: 1 },
    };
    await expect(runtime.appendFromClient(sessionId, [turnStarted(), forged], 'batch-1')).rejects.toThrow(
      'Only the runtime records tool/completed events.',
    );
    expect(await runtime.read(sessionId, 0)).toEqual([]);
    expect(await runtime.appendFromClient(sessionId, [turnStarted(), stepStarted()], 'batch-2')).toBe(2);
  });

  it('keeps counting after a listener throws (a port that went away), and other listeners get every event', async () => {
    const { runtime } = setup();
    const seen: AgentEvent[] = [];
    await runtime.subscribe(sessionId, () => {
      throw new Error('Attempting to use a disconnected port object');
    });
    await runtime.subscribe(sessionId, (event) => seen.push(event));
    expect(await runtime.append(sessionId, [turnStarted(), stepStarted(), note('a')])).toBe(3);
    expect(await runtime.append(sessionId, [note('b')])).toBe(4);
    expect(seen.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect((await runtime.read(sessionId, 0)).map((event) => event.seq)).toEqual([1, 2, 3, 4]);
  });

  it('advances nothing when the store fails, so the next batch leaves no hole', async () => {
    const store = new MemoryEventStore();
    const { runtime } = setup(store);
    await runtime.append(sessionId, [turnStarted()]);
    const append = vi.spyOn(store, 'append').mockRejectedValueOnce(new Error('QuotaExceededError'));
    await expect(runtime.append(sessionId, [note('lost')])).rejects.toThrow('QuotaExceededError');
    append.mockRestore();
    expect(await runtime.append(sessionId, [note('kept')])).toBe(2);
    expect((await runtime.read(sessionId, 0)).map((event) => event.seq)).toEqual([1, 2]);
  });
});

describe('counter after a restart', () => {
  it('a new Runtime over the same store continues the seq from the log and never reuses one', async () => {
    const store = new MemoryEventStore();
    await setup(store).runtime.append(sessionId, [turnStarted(), stepStarted(), delta(0, 'a'), note('1')]);
    const restarted = setup(store).runtime;
    expect(await restarted.append(sessionId, [note('2')])).toBe(4);
    const again = setup(store).runtime;
    const subscription = await again.subscribe(sessionId, () => undefined);
    expect(subscription.snapshotSeq).toBe(4);
    expect(await again.append(sessionId, [note('3'), delta(1, 'b')])).toBe(5);
    const seqs = (await store.read(sessionId, 0)).map((event) => event.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts each session on its own', async () => {
    const { runtime } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    expect(await runtime.append('session-2', [{ ...turnStarted(), sessionId: 'session-2' }])).toBe(1);
  });
});

/** A store whose every call completes when the fast-check scheduler decides. */
function scheduledStore(scheduler: fc.Scheduler, inner = new MemoryEventStore()): EventStore {
  return {
    lastSeq: scheduler.scheduleFunction((id: string) => inner.lastSeq(id)),
    lastBatchId: scheduler.scheduleFunction((id: string) => inner.lastBatchId(id)),
    append: scheduler.scheduleFunction((id: string, events: AgentEvent[], batchId?: string) =>
      inner.append(id, events, batchId),
    ),
    read: scheduler.scheduleFunction((id: string, afterSeq: number) => inner.read(id, afterSeq)),
    readToolCall: scheduler.scheduleFunction((id: string, toolCallId: string) => inner.readToolCall(id, toolCallId)),
    listSessions: scheduler.scheduleFunction(() => inner.listSessions()),
    deleteSession: scheduler.scheduleFunction((id: string) => inner.deleteSession(id)),
  };
}

describe('Runtime.subscribe: the snapshot/subscription boundary', () => {
  it('an event appended while a subscription starts is in the snapshot or delivered after it, never lost or doubled', async () => {
    let runs = 0;
    let divergences = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        async (scheduler, subscribers, batches) => {
          runs += 1;
          const inner = new MemoryEventStore();
          const { runtime } = setup(scheduledStore(scheduler, inner));
          const appends: Promise<number>[] = [runtime.append(sessionId, [turnStarted(), stepStarted()])];
          const received = Array.from({ length: subscribers }, () => [] as AgentEvent[]);
          const subscriptions = received.map((list) => runtime.subscribe(sessionId, (event) => list.push(event)));
          for (let batch = 0; batch < batches; batch++)
            appends.push(runtime.append(sessionId, [delta(batch, `${batch}`), note(`${batch}`)]));
          let settled = false;
          const all = Promise.all([Promise.all(appends), Promise.all(subscriptions)]).finally(() => (settled = true));
          while (!settled) {
            if (scheduler.count() > 0) await scheduler.waitOne();
            else await new Promise((resolve) => setImmediate(resolve));
          }
          const [, results] = await all;
          const everything = await inner.read(sessionId, 0);
          results.forEach((subscription, index) => {
            const snapshotDurable = subscription.snapshot.filter((event) => event.durable);
            const lastInSnapshot = snapshotDurable.at(-1)?.seq ?? 0;
            const durableSeqs = [...snapshotDurable, ...received[index].filter((event) => event.durable)].map(
              (event) => event.seq,
            );
            const deltaIndexes = [...subscription.snapshot, ...received[index]]
              .filter((event) => !event.durable)
              .map((event) => (event.type === 'assistant/delta' ? event.data.index : -1));
            const ok =
              subscription.snapshotSeq === lastInSnapshot &&
              received[index].every((event) => !event.durable || event.seq > subscription.snapshotSeq) &&
              durableSeqs.join() === everything.map((event) => event.seq).join() &&
              deltaIndexes.join() === Array.from({ length: batches }, (_, batch) => batch).join();
            if (!ok) divergences += 1;
            expect({ snapshotSeq: subscription.snapshotSeq, durableSeqs, deltaIndexes }).toEqual({
              snapshotSeq: lastInSnapshot,
              durableSeqs: everything.map((event) => event.seq),
              deltaIndexes: Array.from({ length: batches }, (_, batch) => batch),
            });
          });
        },
      ),
      { numRuns: 300 },
    );
    console.log(`[property] subscribe boundary: runs=${runs} divergences=${divergences}`);
  });

  it('snapshot then live rebuilds the same state as the full stream, transient tail included', async () => {
    const { runtime } = setup();
    const full: AgentEvent[] = [];
    await runtime.subscribe(sessionId, (event) => full.push(event));
    await runtime.append(sessionId, [turnStarted(), stepStarted(), delta(0, 'Speed '), delta(1, 'is ')]);
    const later: AgentEvent[] = [];
    const subscription = await runtime.subscribe(sessionId, (event) => later.push(event));
    expect(
      subscription.snapshot
        .filter((event) => !event.durable)
        .map((event) => event.type === 'assistant/delta' && event.data.text),
    ).toEqual(['Speed ', 'is ']);
    await runtime.append(sessionId, [delta(2, '12.')]);
    const resumed = replayLog(sessionId, [...subscription.snapshot, ...later]);
    expect(resumed).toEqual(replayLog(sessionId, full));
    expect(itemOf(resumed, 'item-1/attempt-1')?.text).toBe('Speed is 12.');
  });

  it('stops delivering after unsubscribe', async () => {
    const { runtime } = setup();
    const seen: AgentEvent[] = [];
    const subscription = await runtime.subscribe(sessionId, (event) => seen.push(event));
    await runtime.append(sessionId, [turnStarted()]);
    subscription.unsubscribe();
    await runtime.append(sessionId, [note('after')]);
    expect(seen).toHaveLength(1);
  });
});

describe('Runtime.executeTool', () => {
  it('runs a call once when it is asked for again, and answers the recorded result', async () => {
    const { runtime, executeTool, store } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    const first = await runtime.executeTool(toolRequest());
    const second = await runtime.executeTool(toolRequest());
    expect(executeTool).toHaveBeenCalledTimes(1);
    expect(first).toEqual({ status: 'completed', output: { ok: true, speed: 12 }, replayed: false });
    expect(second).toEqual({ status: 'completed', output: { ok: true, speed: 12 }, replayed: true });
    expect((await store.read(sessionId, 0)).map((event) => event.type)).toEqual([
      'turn/started',
      'tool/requested',
      'tool/started',
      'tool/completed',
    ]);
  });

  it('runs a call once when it is asked for concurrently, and no one is told its outcome is unknown', async () => {
    let finish: (output: ToolOutput) => void = () => undefined;
    const { runtime, executeTool, store } = setup(
      undefined,
      () => new Promise<ToolOutput>((resolve) => (finish = resolve)),
    );
    await runtime.append(sessionId, [turnStarted()]);
    const calls = [
      runtime.executeTool(toolRequest()),
      runtime.executeTool(toolRequest()),
      runtime.executeTool(toolRequest()),
    ];
    await vi.waitFor(() => expect(executeTool).toHaveBeenCalledTimes(1));
    const whileRunning = runtime.executeTool(toolRequest());
    finish({ ok: true, speed: 12 });
    const results = await Promise.all([...calls, whileRunning]);
    expect(executeTool).toHaveBeenCalledTimes(1);
    expect(results.map((result) => result.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect((await store.read(sessionId, 0)).map((event) => event.type)).toEqual([
      'turn/started',
      'tool/requested',
      'tool/started',
      'tool/completed',
    ]);
  });

  it('records a failed result as tool/failed with the error', async () => {
    const { runtime, store } = setup(undefined, async () => ({
      ok: false,
      error: 'Parameter "spd" not found; known: speed, mode',
    }));
    await runtime.append(sessionId, [turnStarted()]);
    expect(await runtime.executeTool(toolRequest())).toMatchObject({ status: 'failed', replayed: false });
    const failed = (await store.read(sessionId, 0)).at(-1);
    expect(failed).toMatchObject({
      type: 'tool/failed',
      data: { error: 'Parameter "spd" not found; known: speed, mode' },
    });
  });

  it('a call started before a crash, with no result, is unknown: one tool/unknown, never run again', async () => {
    const store = new MemoryEventStore();
    const started = { sessionId, turnId: 'turn-1', toolCallId: 'call-1', time: 10 };
    await store.append(sessionId, [
      stamped(1, turnStarted()),
      stamped(2, {
        type: 'tool/requested',
        ...started,
        stepId: 'step-1',
        data: { toolName: 'setParameter', input: { name: 'speed', value: 12 } },
      }),
      stamped(3, { type: 'tool/started', ...started, data: {} }),
    ]);
    const { runtime, executeTool } = setup(store);
    const result = await runtime.executeTool(toolRequest());
    expect(result.status).toBe('unknown');
    expect(result.replayed).toBe(true);
    expect(result.output).toMatchObject({ ok: false });
    expect(await runtime.executeTool(toolRequest())).toMatchObject({ status: 'unknown' });
    expect(await setup(store).runtime.executeTool(toolRequest())).toMatchObject({ status: 'unknown' });
    expect(executeTool).not.toHaveBeenCalled();
    const log = await store.read(sessionId, 0);
    expect(log.filter((event) => event.type === 'tool/unknown')).toHaveLength(1);
    expect(log.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(replayLog(sessionId, log).toolCalls['call-1'].status).toBe('unknown');
  });

  it('runs a call that an approval or ask already refers to', async () => {
    const { runtime, executeTool, store } = setup();
    await runtime.append(sessionId, [
      turnStarted(),
      {
        type: 'approval/requested',
        sessionId,
        turnId: 'turn-1',
        requestId: 'approval-1',
        toolCallId: 'call-1',
        time: 5,
        data: { argumentsHash: 'h', summary: 'Set speed?', expiresAt: 99 },
      },
      {
        type: 'approval/decided',
        sessionId,
        turnId: 'turn-1',
        requestId: 'approval-1',
        toolCallId: 'call-1',
        time: 6,
        data: { decision: 'allow' },
      },
    ]);
    expect(await runtime.executeTool(toolRequest())).toMatchObject({ status: 'completed', replayed: false });
    expect(executeTool).toHaveBeenCalledTimes(1);
    expect((await store.read(sessionId, 0)).filter((event) => event.type === 'tool/unknown')).toEqual([]);
  });

  it('runs a call that was requested but never started, without requesting it twice', async () => {
    const { runtime, executeTool, store } = setup();
    await runtime.append(sessionId, [
      turnStarted(),
      {
        type: 'tool/requested',
        sessionId,
        turnId: 'turn-1',
        stepId: 'step-1',
        toolCallId: 'call-1',
        time: 5,
        data: { toolName: 'setParameter', input: {} },
      },
    ]);
    expect(await runtime.executeTool(toolRequest())).toMatchObject({ status: 'completed' });
    expect(executeTool).toHaveBeenCalledTimes(1);
    expect((await store.read(sessionId, 0)).map((event) => event.type)).toEqual([
      'turn/started',
      'tool/requested',
      'tool/started',
      'tool/completed',
    ]);
  });
});

describe('turns whose driver is gone', () => {
  it('ownerGone interrupts the open turns of that owner with the partial text it relayed', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [
      turnStarted(),
      stepStarted(),
      delta(0, 'Thinking', 'reason-1', 'reasoning'),
      delta(0, 'Speed '),
      delta(1, 'is 1'),
    ]);
    await runtime.append(sessionId, [turnStarted('turn-2')]);
    runtime.claimTurn('panel-1', 'turn-1');
    runtime.claimTurn('panel-2', 'turn-2');
    await runtime.ownerGone('panel-1', [sessionId], 'The side panel was closed during this turn.');
    const log = await store.read(sessionId, 0);
    const tail = log.slice(-3);
    expect(tail.map((event) => event.type).sort()).toEqual([
      'assistant/interrupted',
      'reasoning/interrupted',
      'turn/interrupted',
    ]);
    expect(tail.find((event) => event.type === 'assistant/interrupted')).toMatchObject({
      itemId: 'item-1',
      attemptId: 'attempt-1',
      data: { text: 'Speed is 1', reason: 'The side panel was closed during this turn.' },
    });
    expect(tail.find((event) => event.type === 'reasoning/interrupted')).toMatchObject({ data: { text: 'Thinking' } });
    expect(tail.at(-1)).toMatchObject({ type: 'turn/interrupted', turnId: 'turn-1' });
    const state = replayLog(sessionId, log);
    expect(state.turns['turn-1'].status).toBe('interrupted');
    expect(state.turns['turn-2'].status).toBe('running');
    expect(itemOf(state, 'item-1/attempt-1')).toMatchObject({ status: 'interrupted', text: 'Speed is 1' });
  });

  it('ownerGone leaves ended and released turns alone, and does nothing twice', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [
      turnStarted(),
      { type: 'turn/completed', sessionId, turnId: 'turn-1', time: 2, data: { reason: 'stop' } },
      turnStarted('turn-2'),
    ]);
    runtime.claimTurn('panel-1', 'turn-1');
    runtime.claimTurn('panel-1', 'turn-2');
    runtime.releaseTurn('panel-1', 'turn-2');
    await runtime.ownerGone('panel-1', [sessionId], 'gone');
    await runtime.ownerGone('panel-1', [sessionId], 'gone');
    expect((await store.read(sessionId, 0)).map((event) => event.type)).toEqual([
      'turn/started',
      'turn/completed',
      'turn/started',
    ]);
  });

  it('interruptOrphanedTurns interrupts open turns nobody owns, and keeps owned ones', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted(), stepStarted(), delta(0, 'Half'), turnStarted('turn-2')]);
    runtime.claimTurn('panel-1', 'turn-2');
    await runtime.interruptOrphanedTurns(sessionId, 'The side panel that ran this turn is gone.');
    const log = await store.read(sessionId, 0);
    expect(log.slice(-2).map((event) => [event.type, 'turnId' in event ? event.turnId : undefined])).toEqual([
      ['assistant/interrupted', 'turn-1'],
      ['turn/interrupted', 'turn-1'],
    ]);
    expect(log.at(-2)).toMatchObject({ data: { text: 'Half' } });
    await runtime.interruptOrphanedTurns(sessionId, 'again');
    expect(await store.read(sessionId, 0)).toHaveLength(log.length);
  });

  it('after a restart an orphaned turn is interrupted from the log alone', async () => {
    const store = new MemoryEventStore();
    await setup(store).runtime.append(sessionId, [turnStarted(), stepStarted(), delta(0, 'lost with the old memory')]);
    const { runtime } = setup(store);
    await runtime.interruptOrphanedTurns(sessionId, 'gone');
    const log = await store.read(sessionId, 0);
    expect(log.map((event) => event.type)).toEqual(['turn/started', 'step/started', 'turn/interrupted']);
    expect(replayLog(sessionId, log).turns['turn-1'].status).toBe('interrupted');
  });
});
