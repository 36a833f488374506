import { describe, expect, it } from 'vitest';
import { EMPTY_OUTPUT } from '../jobs/output-window';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { initialClientState } from './client-state';
import { liveWindow } from './job-view';
import { reduceEvents } from './reduce-events';

const sessionId = 's';
const envelope = { schemaVersion: AGENT_EVENT_SCHEMA_VERSION, sessionId, time: 1 };
let seq = 0;
const durable = (event: object) => ({ ...envelope, durable: true, seq: ++seq, ...event }) as AgentEvent;
const output = (offset: number, text: string, totalBytes: number, index: number) =>
  ({
    ...envelope,
    durable: false,
    seq,
    type: 'job/output',
    jobId: 'job',
    data: { index, offset, text, totalBytes },
  }) as AgentEvent;

describe('job events in the reducer', () => {
  it('tracks states, keeps live output bounded with its byte window, and ignores everything after the final state', () => {
    seq = 0;
    let state = reduceEvents(initialClientState(sessionId), [
      durable({
        type: 'job/created',
        jobId: 'job',
        toolCallId: 'call',
        data: { code: 'x', background: false, timeoutMs: 1000, outputLimitBytes: 10 },
      }),
      durable({ type: 'job/running', jobId: 'job', data: {} }),
    ]);
    expect(state.jobs.job.state).toBe('running');
    const chunk = 'y'.repeat(16 * 1024);
    const chunks = Array.from({ length: 10 }, (_, index) =>
      output(index * 20 * 1024, chunk, index * 20 * 1024 + chunk.length, index),
    );
    state = reduceEvents(state, [...chunks, chunks[3]]);
    const window = liveWindow(state.jobs.job);
    expect(window.to).toBe(9 * 20 * 1024 + chunk.length);
    expect(window.to - window.from).toBeLessThanOrEqual(64 * 1024 + 20 * 1024);
    expect(window.dropped).toBe(window.to - state.jobs.job.live.reduce((sum, part) => sum + part.to - part.from, 0));
    state = reduceEvents(state, [
      durable({ type: 'job/stopping', jobId: 'job', commandId: 'c', data: {} }),
      durable({
        type: 'job/killed',
        jobId: 'job',
        commandId: 'c',
        data: { cause: 'user', output: EMPTY_OUTPUT, durationMs: 3 },
      }),
      durable({
        type: 'job/completed',
        jobId: 'job',
        data: { result: '1', resultBytes: 1, output: EMPTY_OUTPUT, durationMs: 3 },
      }),
      output(999_999, 'late', 1_000_003, 11),
    ]);
    expect(state.jobs.job.state).toBe('killed');
    expect(state.jobs.job.result).toBeUndefined();
    expect(state.jobs.job.output).toEqual(EMPTY_OUTPUT);
  });
});
