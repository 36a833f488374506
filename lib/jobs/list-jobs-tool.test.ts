import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import { sideEffectOf, toolNamed } from '../tools/tool-registry';
import { JobLedger } from './job-ledger';
import type { JobToolServices } from './job-tool-family';
import { listJobsTool } from './list-jobs-tool';

const sessionId = 'session-1';
const request: ToolExecutionRequest = {
  sessionId,
  turnId: 'turn-1',
  stepId: 'step-1',
  toolCallId: 'call-list',
  toolName: 'listJobs',
  input: {},
};

function created(jobId: string, time: number, background: boolean): AgentEvent {
  return {
    type: 'job/created',
    sessionId,
    jobId,
    turnId: 'turn-1',
    time,
    data: { code: 'return 1', background, timeoutMs: 5000, outputLimitBytes: 16_384 },
  } as unknown as AgentEvent;
}

function completed(jobId: string, totalBytes: number, droppedBytes: number): AgentEvent {
  return {
    type: 'job/completed',
    sessionId,
    jobId,
    time: 3000,
    data: {
      result: '1',
      resultBytes: 1,
      output: { totalBytes, droppedBytes, head: { text: '', from: 0, to: 0 }, tail: { text: '', from: 0, to: 0 } },
      durationMs: 10,
    },
  } as unknown as AgentEvent;
}

function services(ledger: JobLedger): JobToolServices {
  return { ledger: async (asked: string) => (asked === sessionId ? ledger : new JobLedger()) } as JobToolServices;
}

describe('listJobs', () => {
  it('lists the jobs of the conversation with state, start and the output bytes kept of an ended one', async () => {
    const ledger = new JobLedger();
    for (const event of [created('job-1', 1000, false), created('job-2', 2000, true), completed('job-1', 9000, 4000)])
      ledger.observe(event);
    expect(await listJobsTool.execute({}, services(ledger), { request, callKey: 'session-1/call-list' })).toEqual({
      ok: true,
      jobs: [
        {
          jobId: 'job-1',
          state: 'completed',
          startedAt: '1970-01-01T00:00:01.000Z',
          background: false,
          outputBytesKept: 5000,
          outputBytes: 9000,
        },
        { jobId: 'job-2', state: 'created', startedAt: '1970-01-01T00:00:02.000Z', background: true },
      ],
    });
  });

  it('answers an empty list for a conversation without jobs, and only for the asking conversation', async () => {
    const other = { ...request, sessionId: 'session-2' };
    const ledger = new JobLedger();
    ledger.observe(created('job-1', 1000, false));
    expect(
      await listJobsTool.execute({}, services(ledger), { request: other, callKey: 'session-2/call-list' }),
    ).toEqual({ ok: true, jobs: [] });
  });

  it('is registered as a read-only jobs tool, so a restart runs it again', () => {
    expect(toolNamed('listJobs')).toBe(listJobsTool);
    expect(listJobsTool.runsOn).toBe('jobs');
    expect(sideEffectOf('listJobs')).toBe('read-only');
  });
});
