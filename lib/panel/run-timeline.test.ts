import { describe, expect, it } from 'vitest';
import { EventLog } from '../../tests/support/event-log';
import { filterTimeline, runTimeline, timelineEntries, timelineExport, turnsWithRows } from './run-timeline';

const ids = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };

function run(): EventLog {
  const log = new EventLog();
  log.add({ type: 'turn/started', turnId: 'turn-1', time: 1_000, data: { userItemId: 'u1', text: 'Set it' } });
  log.add({ type: 'step/started', ...ids, time: 1_010, data: { index: 0 } });
  log.add({
    type: 'step/completed',
    ...ids,
    time: 1_250,
    data: { finishReason: 'tool-calls', usage: { inputTokens: 120, outputTokens: 9 }, firstOutputMs: 80, model: 'm' },
  });
  log.add({
    type: 'tool/requested',
    turnId: 'turn-1',
    stepId: 'step-1',
    toolCallId: 'call-1',
    time: 1_260,
    data: { toolName: 'setParameter', input: { param: 'speed', value: 3 } },
  });
  log.add({
    type: 'approval/requested',
    turnId: 'turn-1',
    requestId: 'request-1',
    toolCallId: 'call-1',
    time: 1_270,
    data: { argumentsHash: 'h', summary: 'Set speed to 3', expiresAt: 9_999 },
  });
  log.add({
    type: 'approval/decided',
    turnId: 'turn-1',
    requestId: 'request-1',
    toolCallId: 'call-1',
    time: 1_900,
    data: { decision: 'allow' },
  });
  log.add({ type: 'tool/started', turnId: 'turn-1', toolCallId: 'call-1', time: 1_910, data: {} });
  log.add({
    type: 'tool/failed',
    turnId: 'turn-1',
    toolCallId: 'call-1',
    time: 1_930,
    data: { error: 'not ready', output: { ok: false, error: 'not ready' }, durationMs: 20 },
  });
  log.add({ type: 'step/started', ...ids, stepId: 'step-2', attemptId: 'attempt-2', time: 1_940, data: { index: 1 } });
  log.add({
    type: 'stream/error',
    turnId: 'turn-1',
    attemptId: 'attempt-2',
    time: 1_990,
    data: { message: 'HTTP 500', code: 'http', retryable: true },
  });
  log.add({ type: 'turn/interrupted', turnId: 'turn-1', time: 1_991, data: { reason: 'HTTP 500' } });
  log.add({ type: 'turn/started', turnId: 'turn-2', time: 2_000, data: { userItemId: 'u2', text: 'again' } });
  log.add({
    type: 'tool/retried',
    turnId: 'turn-2',
    toolCallId: 'call-1',
    attemptId: 'call-1-b',
    time: 2_010,
    data: { attempt: 2, previousAttemptId: 'call-1' },
  });
  log.add({
    type: 'tool/completed',
    turnId: 'turn-2',
    toolCallId: 'call-1-b',
    time: 2_040,
    data: { output: { ok: true }, durationMs: 25 },
  });
  return log;
}

describe('runTimeline', () => {
  it('reads every model request, tool call, approval and error of a conversation from the log, in order', () => {
    const timeline = timelineEntries(run().events);
    expect(timeline.map((entry) => [entry.kind, entry.id, entry.status])).toEqual([
      ['model-request', 'attempt-1', 'tool-calls'],
      ['tool-call', 'call-1', 'failed'],
      ['approval', 'request-1', 'allowed'],
      ['model-request', 'attempt-2', 'failed'],
      ['error', 'attempt-2', undefined],
      ['error', 'turn-1', undefined],
      ['tool-call', 'call-1-b', 'completed'],
    ]);
    expect(timeline[0]).toMatchObject({
      durationMs: 240,
      firstOutputMs: 80,
      usage: { inputTokens: 120, outputTokens: 9 },
      model: 'm',
    });
    expect(timeline[1]).toMatchObject({ input: { param: 'speed', value: 3 }, error: 'not ready', durationMs: 20 });
    expect(timeline[2]).toMatchObject({ decidedBy: 'user', decidedAt: 1_900, durationMs: 630 });
    expect(timeline[6]).toMatchObject({ title: 'setParameter', attempt: 2, retryOf: 'call-1', result: { ok: true } });
  });

  it('keeps to one turn when asked, and filters by kind', () => {
    const events = run().events;
    expect(timelineEntries(events, 'turn-2').map((entry) => entry.id)).toEqual(['call-1-b']);
    const timeline = timelineEntries(events);
    expect(filterTimeline(timeline, new Set(['approval', 'error'])).map((entry) => entry.kind)).toEqual([
      'approval',
      'error',
      'error',
    ]);
    expect(filterTimeline(timeline, new Set())).toHaveLength(timeline.length);
  });

  it('heads each turn with what began it, how it ended and its totals', () => {
    const { turns } = runTimeline(run().events);
    expect(turns).toEqual([
      {
        turnId: 'turn-1',
        number: 1,
        start: 'message',
        title: 'Set it',
        time: 1_000,
        durationMs: 991,
        status: 'interrupted',
        requests: 2,
        toolCalls: 1,
        inputTokens: 120,
        outputTokens: 9,
      },
      {
        turnId: 'turn-2',
        number: 2,
        start: 'message',
        title: 'again',
        time: 2_000,
        status: 'running',
        requests: 0,
        toolCalls: 1,
      },
    ]);
    expect(runTimeline(run().events, 'turn-2').turns.map((turn) => [turn.turnId, turn.number])).toEqual([
      ['turn-2', 2],
    ]);
  });

  it('names the turns that retry, regenerate or run a step again', () => {
    const log = run();
    log.add({
      type: 'turn/started',
      turnId: 'turn-3',
      time: 3_000,
      data: { userItemId: 'u3', text: 'You ran it again.', retriesToolCall: 'call-1' },
    });
    log.add({ type: 'turn/completed', turnId: 'turn-3', time: 3_500, data: { reason: 'step-cap' } });
    log.add({
      type: 'turn/started',
      turnId: 'turn-4',
      time: 4_000,
      data: { userItemId: 'u4', text: '', retriesStep: { turnId: 'turn-1', attemptId: 'attempt-2' } },
    });
    log.add({ type: 'turn/aborted', turnId: 'turn-4', time: 4_100, data: { reason: 'Stopped' } });
    log.add({
      type: 'turn/started',
      turnId: 'turn-5',
      time: 5_000,
      data: { userItemId: 'u5', text: 'Set it\n  now '.repeat(20), answerOf: 'turn-1' },
    });
    const turns = runTimeline(log.events).turns.slice(2);
    expect(turns.map((turn) => [turn.start, turn.status, turn.durationMs])).toEqual([
      ['retry-call', 'ended (step-cap)', 500],
      ['retry-step', 'stopped', 100],
      ['regenerate', 'running', undefined],
    ]);
    expect(turns[0]?.title).toBe('Retry of setParameter');
    expect(turns[1]?.title).toBe('Retry step');
    expect(turns[2]?.title).toMatch(/^Regenerate: Set it now Set it now .+…$/);
    expect(turns[2]?.title.length).toBeLessThanOrEqual('Regenerate: '.length + 80);
  });

  it('exports as a versioned JSON document of the rows shown and their turns', () => {
    const timeline = runTimeline(run().events);
    const approvals = filterTimeline(timeline.entries, new Set(['approval']));
    const document = timelineExport({ sessionId: 's' }, { turns: timeline.turns, entries: approvals }, new Date(0));
    expect(JSON.parse(JSON.stringify(document))).toEqual({
      format: 'splitbrain-timeline',
      version: 2,
      exportedAt: '1970-01-01T00:00:00.000Z',
      sessionId: 's',
      turns: [timeline.turns[0]],
      entries: approvals,
    });
    expect(turnsWithRows(timeline.turns, [])).toEqual([]);
  });
});
