import { describe, expect, it } from 'vitest';
import { EventLog } from '../../tests/support/event-log';
import { filterTimeline, runTimeline, timelineExport } from './run-timeline';

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
    const timeline = runTimeline(run().events);
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
    expect(runTimeline(events, 'turn-2').map((entry) => entry.id)).toEqual(['call-1-b']);
    const timeline = runTimeline(events);
    expect(filterTimeline(timeline, new Set(['approval', 'error'])).map((entry) => entry.kind)).toEqual([
      'approval',
      'error',
      'error',
    ]);
    expect(filterTimeline(timeline, new Set())).toHaveLength(timeline.length);
  });

  it('exports as a versioned JSON document of the rows shown', () => {
    const entries = runTimeline(run().events, 'turn-1');
    const document = timelineExport({ sessionId: 's', turnId: 'turn-1' }, entries, new Date(0));
    expect(JSON.parse(JSON.stringify(document))).toEqual({
      format: 'splitbrain-timeline',
      version: 1,
      exportedAt: '1970-01-01T00:00:00.000Z',
      sessionId: 's',
      turnId: 'turn-1',
      entries,
    });
  });
});
