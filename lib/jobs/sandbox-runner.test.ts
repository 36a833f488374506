import { describe, expect, it } from 'vitest';
import type { JobHostReport, JobOutcome } from '../protocol/job-host-wire';
import { JOB_LIMITS } from './job-limits';
import { SandboxRunner, type ScriptWorker } from './sandbox-runner';

/** A runner over a fake worker and a fake clock; `deliver` hands the runner a message the worker posted. */
function harness() {
  let now = 0;
  const timers: { at: number; run: () => void; cleared: boolean }[] = [];
  const reports: JobHostReport[] = [];
  const worker = { terminated: false, listener: (_data: unknown) => {} };
  const runner = new SandboxRunner({
    spawn: (): ScriptWorker => ({
      terminate: () => (worker.terminated = true),
      onMessage: (listener) => (worker.listener = listener),
      onError: () => {},
    }),
    send: (report) => reports.push(report),
    now: () => now,
    setTimer: (run, delayMs) => {
      const timer = { at: now + delayMs, run, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      if (handle) (handle as { cleared: boolean }).cleared = true;
    },
  });
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const next = timers.filter((timer) => !timer.cleared && timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      next.cleared = true;
      now = next.at;
      next.run();
    }
    now = until;
  };
  const finished = () =>
    reports.flatMap((report) => (report.type === 'job-host/finished' ? [report.outcome as JobOutcome] : []));
  return { runner, worker, reports, advance, finished, deliver: (data: unknown) => worker.listener(data) };
}

const spec = { sessionId: 'session-1', jobId: 'job-1', code: 'while (true) {}', input: null, timeoutMs: 1000 };

describe('SandboxRunner: what a stopped job printed is kept', () => {
  it('Stop terminates the worker at once and the outcome carries the output still arriving from it', () => {
    const { runner, worker, advance, finished, deliver } = harness();
    runner.start(spec);
    deliver({ kind: 'hello' });
    runner.kill('job-1');
    expect(worker.terminated).toBe(true);
    // Posted before the terminate, handled after it.
    deliver({ kind: 'output', text: 'spinning\n' });
    advance(JOB_LIMITS.drainQuietMs - 1);
    expect(finished()).toEqual([]);
    deliver({ kind: 'output', text: 'still\n' });
    advance(JOB_LIMITS.drainQuietMs);
    const [outcome] = finished();
    expect(outcome).toMatchObject({ state: 'killed', jobId: 'job-1' });
    expect(outcome.output).toMatchObject({ totalBytes: 15, droppedBytes: 0, head: { text: 'spinning\nstill\n' } });
  });

  it('the time limit keeps the output too, and a result that comes after the stop changes nothing', () => {
    const { runner, advance, finished, deliver } = harness();
    runner.start(spec);
    deliver({ kind: 'hello' });
    deliver({ kind: 'output', text: 'before\n' });
    advance(spec.timeoutMs);
    deliver({ kind: 'output', text: 'late\n' });
    deliver({ kind: 'result', json: '1' });
    advance(JOB_LIMITS.drainQuietMs);
    const [outcome] = finished();
    expect(outcome).toMatchObject({ state: 'failed', reason: 'timeout' });
    expect(outcome.output.head.text).toBe('before\nlate\n');
    expect(finished()).toHaveLength(1);
  });

  it('a worker that keeps sending after the stop is reported within drainMaxMs', () => {
    const { runner, advance, finished, deliver } = harness();
    runner.start(spec);
    runner.kill('job-1');
    for (let elapsed = 0; elapsed <= JOB_LIMITS.drainMaxMs; elapsed += JOB_LIMITS.drainQuietMs / 2) {
      deliver({ kind: 'output', text: 'x\n' });
      advance(JOB_LIMITS.drainQuietMs / 2);
    }
    expect(finished()).toHaveLength(1);
    expect(finished()[0].state).toBe('killed');
  });

  it('code that does not parse fails at once without a worker', () => {
    const { runner, finished } = harness();
    runner.start({ ...spec, code: 'let = = 1' });
    expect(finished()[0]).toMatchObject({ state: 'failed', reason: 'exception' });
  });
});
