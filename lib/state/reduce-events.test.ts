import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { EventLog } from '../../tests/support/event-log';
import { meaningfulState } from '../../tests/support/meaningful-state';
import { initialClientState, itemKey, itemOf } from './client-state';
import { reduceEvents, replayLog } from './reduce-events';

const turn = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };
const item = { ...turn, itemId: 'item-1' };

/** A turn with streamed text, a tool call behind an approval, and a notification. */
function sampleLog(): EventLog {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Particles' } });
  log.turnStarted('turn-1');
  log.stepStarted(turn);
  log.delta(item, 0, 'Setting ');
  log.delta(item, 1, 'the speed');
  log.completed(item, 'Setting the speed.');
  log.toolRequested('turn-1', 'step-1', 'call-1');
  log.add({
    type: 'approval/requested',
    turnId: 'turn-1',
    requestId: 'approval-1',
    toolCallId: 'call-1',
    data: { argumentsHash: 'h', summary: 'Set speed?', expiresAt: 99_999 },
  });
  log.add({
    type: 'approval/decided',
    turnId: 'turn-1',
    requestId: 'approval-1',
    toolCallId: 'call-1',
    data: { decision: 'allow' },
  });
  log.add({ type: 'tool/started', turnId: 'turn-1', toolCallId: 'call-1', data: {} });
  log.add({
    type: 'tool/completed',
    turnId: 'turn-1',
    toolCallId: 'call-1',
    data: { output: { ok: true }, durationMs: 3 },
  });
  log.add({ type: 'notification', notificationId: 'note-1', data: { level: 'info', message: 'Speed set.' } });
  log.turnCompleted('turn-1');
  return log;
}

function reduceInChunks(events: readonly AgentEvent[], size: number, sessionId = 'session-1') {
  let state = initialClientState(sessionId);
  for (let start = 0; start < events.length; start += size)
    state = reduceEvents(state, events.slice(start, start + size));
  return state;
}

describe('duplicate events (the same seq 2 to 10 times)', () => {
  for (let copies = 2; copies <= 10; copies++) {
    it(`gives exactly the state of one delivery when every event arrives ${copies} times`, () => {
      const { events, sessionId } = sampleLog();
      const once = replayLog(sessionId, events);
      const backToBack = events.flatMap((event) => Array.from({ length: copies }, () => event));
      const rounds = Array.from({ length: copies }, () => events).flat();
      expect(reduceInChunks(backToBack, 3)).toEqual(once);
      expect(reduceInChunks(rounds, 5)).toEqual(once);
    });
  }

  it('does not append a delta twice: text, tool cards, approvals and notifications appear once', () => {
    const { events, sessionId } = sampleLog();
    const state = replayLog(sessionId, [...events, ...events.slice(2), ...events]);
    expect(itemOf(state, itemKey('item-1', 'attempt-1'))?.text).toBe('Setting the speed.');
    expect(state.turns['turn-1'].entries).toEqual([
      { kind: 'item', key: itemKey('item-1', 'attempt-1') },
      { kind: 'tool', toolCallId: 'call-1' },
    ]);
    expect(Object.keys(state.requests)).toEqual(['approval-1']);
    expect(state.notifications).toHaveLength(1);
    expect(state.turnOrder).toEqual(['turn-1']);
  });
});

describe('out-of-order events (N+1 before N)', () => {
  it('holds N+1 back, and everything past the gap, until N arrives; then applies both in order', () => {
    const log = sampleLog();
    const started = log.events.findIndex((event) => event.type === 'tool/started');
    const before = replayLog(log.sessionId, log.events.slice(0, started));
    const toolStarted = log.events[started];
    const toolCompleted = log.events[started + 1];
    const lateDelta = log.add({
      type: 'tool/input-delta',
      turnId: 'turn-1',
      stepId: 'step-1',
      toolCallId: 'call-2',
      data: { toolName: 'x', index: 0, delta: '{' },
    });

    const waiting = reduceEvents(before, [toolCompleted, lateDelta]);
    expect(waiting.lastSeq).toBe(before.lastSeq);
    expect(waiting.toolCalls['call-1'].status).toBe('requested');
    expect(waiting.toolCalls['call-2']).toBeUndefined();
    expect(waiting.pending.map((event) => event.seq)).toEqual([toolCompleted.seq]);
    expect(waiting.gap).toEqual({ expected: toolStarted.seq, received: toolCompleted.seq });

    const filled = reduceEvents(waiting, [toolStarted]);
    expect(filled.lastSeq).toBe(toolCompleted.seq);
    expect(filled.toolCalls['call-1']).toMatchObject({ status: 'done', output: { ok: true } });
    expect(filled.pending).toEqual([]);
    expect(filled.gap).toBeNull();
    expect(filled).toEqual(replayLog(log.sessionId, [...log.events.slice(0, started + 2)]));
  });

  it('never applies a later seq when only seq 0..1 is there (the SEQ_GAP exercise)', () => {
    const log = sampleLog();
    const state = reduceEvents(initialClientState(log.sessionId), [log.events[0], log.events.at(-1)!]);
    expect(state.lastSeq).toBe(1);
    expect(state.turns).toEqual({});
    expect(state.gap).toEqual({ expected: 2, received: log.events.at(-1)!.seq });
  });

  it('fills a gap with a reversed tail in one batch', () => {
    const log = sampleLog();
    const state = reduceEvents(initialClientState(log.sessionId), [...log.events].reverse());
    expect(meaningfulState(state)).toEqual(meaningfulState(replayLog(log.sessionId, log.durable)));
    expect(state.gap).toBeNull();
  });
});

describe('live events overlapping a history replay', () => {
  it('shows no text, tool card, approval or notification twice when replay and live interleave', () => {
    const log = sampleLog();
    const history = log.durable;
    const live = log.events.slice(4);
    const interleaved: AgentEvent[] = [];
    for (let index = 0; index < Math.max(history.length, live.length); index++) {
      if (history[index]) interleaved.push(history[index]);
      if (live[index]) interleaved.push(live[index]);
    }
    const state = reduceInChunks(interleaved, 2);
    expect(meaningfulState(state)).toEqual(meaningfulState(replayLog(log.sessionId, log.events)));
    expect(state.turns['turn-1'].entries).toHaveLength(2);
    expect(Object.keys(state.requests)).toHaveLength(1);
    expect(state.notifications).toHaveLength(1);
  });
});

describe('late deltas', () => {
  it('after completion: the completed text stays as it was', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    log.delta(item, 0, 'Hel');
    log.completed(item, 'Hello, repaired.');
    const lateNext = log.delta(item, 1, 'lo');
    const lateRepeat = log.delta(item, 0, 'Hel');
    const state = replayLog(log.sessionId, log.events);
    expect(itemOf(state, itemKey('item-1', 'attempt-1'))).toMatchObject({
      text: 'Hello, repaired.',
      status: 'completed',
    });
    expect(reduceEvents(state, [lateNext, lateRepeat])).toEqual(state);
  });

  it('after an abort: the turn does not come back to life and the next turn is untouched', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    log.delta(item, 0, 'Par');
    log.interrupted(item, 'Par');
    log.add({ type: 'turn/aborted', turnId: 'turn-1', data: { reason: 'Stopped by the user.' } });
    log.turnStarted('turn-2');
    const late = [
      log.delta(item, 1, 'tial'),
      log.add({ type: 'turn/completed', turnId: 'turn-1', data: { reason: 'stop' } }),
    ];
    const state = replayLog(log.sessionId, log.events);
    expect(state.turns['turn-1'].status).toBe('aborted');
    expect(itemOf(state, itemKey('item-1', 'attempt-1'))).toMatchObject({ text: 'Par', status: 'interrupted' });
    expect(state.turns['turn-2'].status).toBe('running');
    expect(reduceEvents(state, late)).toEqual(state);
  });

  it('a delta of an earlier seq that arrives after later durable events still counts once, by its index', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    const first = log.delta(item, 0, 'a');
    const second = log.delta(item, 1, 'b');
    log.add({ type: 'notification', notificationId: 'n', data: { level: 'info', message: 'x' } });
    const third = log.delta(item, 2, 'c');
    const state = replayLog(log.sessionId, [...log.durable, first, third, second, second, third]);
    expect(itemOf(state, itemKey('item-1', 'attempt-1'))?.text).toBe('abc');
  });
});

describe('completed and interrupted items', () => {
  it('a completed item replaces its partial; a retry is a new attempt and the old one stays interrupted', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    log.delta(item, 0, 'Half a sen');
    log.interrupted(item, 'Half a sen', 'The connection dropped.');
    const retry = { ...item, attemptId: 'attempt-2' };
    log.stepStarted(retry);
    log.delta(retry, 0, 'A whole ');
    log.completed(retry, 'A whole sentence.');
    // A stray final event for the interrupted attempt does not revive it.
    log.completed(item, 'Half a sentence, completed late.');
    const state = replayLog(log.sessionId, log.events);
    expect(itemOf(state, itemKey('item-1', 'attempt-1'))).toMatchObject({ status: 'interrupted', text: 'Half a sen' });
    expect(itemOf(state, itemKey('item-1', 'attempt-2'))).toMatchObject({
      status: 'completed',
      text: 'A whole sentence.',
    });
    expect(state.turns['turn-1'].entries).toHaveLength(2);
  });
});

describe('live state equals a replay of the log however many deltas were missed', () => {
  /** Text, then a tool call, then more text, as Anthropic streams it; finals come at the end of the step. */
  function textToolText(): EventLog {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    log.delta({ ...turn, itemId: 'x' }, 0, 'First ');
    log.toolPreview('turn-1', 'step-1', 'call-1', 0, '{"speed":');
    log.delta({ ...turn, itemId: 'y' }, 0, 'Second');
    log.completed({ ...turn, itemId: 'x' }, 'First.');
    log.completed({ ...turn, itemId: 'y' }, 'Second.');
    log.add({ type: 'step/completed', ...turn, data: { finishReason: 'tool-calls' } });
    log.toolRequested('turn-1', 'step-1', 'call-1');
    return log;
  }

  it('orders entries by the log, not by which deltas happened to arrive', () => {
    const log = textToolText();
    const live = replayLog(log.sessionId, log.events);
    const missedFirstDelta = replayLog(
      log.sessionId,
      log.events.filter((event) => !(event.type === 'assistant/delta' && event.itemId === 'x')),
    );
    const fromLog = replayLog(log.sessionId, log.durable);
    const expected = [
      { kind: 'item', key: itemKey('x', 'attempt-1') },
      { kind: 'item', key: itemKey('y', 'attempt-1') },
      { kind: 'tool', toolCallId: 'call-1' },
    ];
    expect(fromLog.turns['turn-1'].entries).toEqual(expected);
    expect(live.turns['turn-1'].entries).toEqual(expected);
    expect(missedFirstDelta.turns['turn-1'].entries).toEqual(expected);
  });

  it('keeps streaming entries behind the ones the log knows while they stream', () => {
    const log = textToolText();
    const midStream = replayLog(log.sessionId, log.events.slice(0, 5));
    expect(
      midStream.turns['turn-1'].entries.map((entry) =>
        entry.kind === 'tool' ? entry.toolCallId : entry.kind === 'item' ? entry.key : 'error',
      ),
    ).toEqual([itemKey('x', 'attempt-1'), 'call-1', itemKey('y', 'attempt-1')]);
  });

  it('drops argument previews of a call that was never requested when the turn ends', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    log.toolPreview('turn-1', 'step-1', 'call-1', 0, '{"speed":');
    log.add({
      type: 'notification',
      notificationId: 'n',
      data: { level: 'warning', message: 'The model repeated the same tool call.' },
    });
    const whileStreaming = replayLog(log.sessionId, log.events);
    expect(whileStreaming.toolCalls['call-1']).toMatchObject({ status: 'streaming', argumentsPreview: '{"speed":' });
    log.add({ type: 'turn/completed', turnId: 'turn-1', data: { reason: 'repeated-call' } });
    const ended = replayLog(log.sessionId, log.events);
    expect(ended.toolCalls).toEqual({});
    expect(ended.turns['turn-1'].entries).toEqual([]);
    expect(ended).toEqual(replayLog(log.sessionId, log.durable));
  });
});

describe('requests', () => {
  it('a settled approval is not revived by a later request with the same requestId', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    const requested = {
      type: 'approval/requested',
      turnId: 'turn-1',
      requestId: 'approval-1',
      toolCallId: 'call-1',
      data: { argumentsHash: 'h', summary: 'Set speed?', expiresAt: 5 },
    } as const;
    log.add(requested);
    log.add({
      type: 'approval/decided',
      turnId: 'turn-1',
      requestId: 'approval-1',
      toolCallId: 'call-1',
      data: { decision: 'deny' },
    });
    log.add(requested);
    log.add({
      type: 'approval/decided',
      turnId: 'turn-1',
      requestId: 'approval-1',
      toolCallId: 'call-1',
      data: { decision: 'allow' },
    });
    expect(replayLog(log.sessionId, log.events).requests['approval-1'].status).toBe('denied');
  });

  it('an ask is answered once; a second answer and an expiry change nothing', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.add({
      type: 'ask/requested',
      turnId: 'turn-1',
      requestId: 'ask-1',
      data: { question: 'Mode?', answerSchema: { type: 'string' } },
    });
    log.add({ type: 'ask/answered', turnId: 'turn-1', requestId: 'ask-1', data: { answer: 'auto' } });
    log.add({ type: 'ask/expired', turnId: 'turn-1', requestId: 'ask-1', data: { reason: 'late' } });
    expect(replayLog(log.sessionId, log.events).requests['ask-1'].status).toBe('answered');
  });
});

describe('scope', () => {
  it('ignores events of other sessions', () => {
    const log = sampleLog();
    const other = new EventLog('session-2');
    other.turnStarted('turn-x');
    const state = replayLog(log.sessionId, [...other.events, ...log.events]);
    expect(state).toEqual(replayLog(log.sessionId, log.events));
  });

  it('does not change the state it was given', () => {
    const log = sampleLog();
    const half = replayLog(log.sessionId, log.events.slice(0, 6));
    const frozen = structuredClone(half);
    reduceEvents(half, log.events.slice(6));
    expect(half).toEqual(frozen);
  });
});

describe('tool call target', () => {
  it('keeps the target named by tool/requested, and by tool/started when the request did not name one', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    log.add({
      type: 'tool/requested',
      turnId: 'turn-1',
      stepId: 'step-1',
      toolCallId: 'call-1',
      data: { toolName: 'set_parameters', input: {}, targetId: 'chart' },
    });
    log.add({ type: 'tool/started', turnId: 'turn-1', toolCallId: 'call-1', data: {} });
    log.toolRequested('turn-1', 'step-1', 'call-2');
    log.add({ type: 'tool/started', turnId: 'turn-1', toolCallId: 'call-2', data: { targetId: 'particles' } });
    const state = replayLog(log.sessionId, log.events);
    expect(state.toolCalls['call-1'].targetId).toBe('chart');
    expect(state.toolCalls['call-2'].targetId).toBe('particles');
  });
});

describe('copying only what changed', () => {
  it('a batch of deltas copies the small table of streaming items, never the table of every item or turn', () => {
    const log = new EventLog();
    log.turnStarted('turn-1');
    log.stepStarted(turn);
    log.completed({ ...turn, itemId: 'earlier' }, 'An earlier answer.');
    log.delta(item, 0, 'Set');
    const streamedSoFar = log.events.length;
    const before = replayLog(log.sessionId, log.events.slice(0, streamedSoFar));
    const key = itemKey('item-1', 'attempt-1');
    expect(Object.keys(before.streaming)).toEqual([key]);

    log.delta(item, 1, 'ting ');
    log.delta(item, 2, 'the speed');
    const during = reduceEvents(before, log.events.slice(streamedSoFar));
    expect(itemOf(during, key)?.text).toBe('Setting the speed');
    expect(during.items).toBe(before.items);
    expect(during.turns).toBe(before.turns);
    expect(during.streaming).not.toBe(before.streaming);

    const settledAt = log.events.length;
    log.completed(item, 'Setting the speed.');
    const after = reduceEvents(during, log.events.slice(settledAt));
    expect(after.streaming).toEqual({});
    expect(after.items[key]).toMatchObject({ text: 'Setting the speed.', status: 'completed' });
  });
});
