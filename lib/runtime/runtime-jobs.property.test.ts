import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_OUTPUT } from '../jobs/output-window';
import { testRuntime } from '../../tests/support/test-runtime';
import type { AgentEvent } from '../protocol/agent-event';
import { JOB_FINAL_TYPES } from '../protocol/job-events';
import type { JobHostReport, JobOutcome, JobStartSpec } from '../protocol/job-host-wire';
import type { JobHostDriver } from '../jobs/job-control';
import { MemoryEventStore } from '../session-log/memory-event-store';

const sessionId = 'session-1';
const turnId = 'turn-1';

/** A job host in memory: jobs run until the test ends them; it survives a runtime restart unless it is lost. */
class FakeHost implements JobHostDriver {
  listeners: ((report: JobHostReport) => void)[] = [];
  readonly running = new Map<string, number>();
  readonly unacknowledged = new Map<string, JobOutcome>();
  readonly starts = new Map<string, number>();

  async start(spec: JobStartSpec): Promise<void> {
    this.starts.set(spec.jobId, (this.starts.get(spec.jobId) ?? 0) + 1);
    this.running.set(spec.jobId, 0);
    this.emit({ type: 'job-host/started', sessionId, jobId: spec.jobId });
  }

  async kill(jobId: string): Promise<boolean> {
    if (this.running.has(jobId))
      this.finish({ state: 'killed', sessionId, jobId, output: EMPTY_OUTPUT, durationMs: 1 });
    return true;
  }

  acknowledge(jobId: string): void {
    this.unacknowledged.delete(jobId);
  }

  async knownJobs(): Promise<Set<string>> {
    return new Set([...this.running.keys(), ...this.unacknowledged.keys()]);
  }

  onReport(listener: (report: JobHostReport) => void): void {
    this.listeners.push(listener);
  }

  output(jobId: string): void {
    const offset = this.running.get(jobId);
    if (offset === undefined) return;
    this.running.set(jobId, offset + 3);
    this.emit({ type: 'job-host/output', sessionId, jobId, offset, text: 'ok\n', totalBytes: offset + 3 });
  }

  complete(jobId: string): void {
    if (!this.running.has(jobId)) return;
    this.finish({
      state: 'completed',
      sessionId,
      jobId,
      result: '42',
      resultBytes: 2,
      output: EMPTY_OUTPUT,
      durationMs: 1,
    });
  }

  lose(): void {
    this.running.clear();
    this.unacknowledged.clear();
  }

  hello(): void {
    this.emit({
      type: 'job-host/hello',
      running: [...this.running.keys()].map((jobId) => ({ sessionId, jobId })),
      finished: [...this.unacknowledged.values()],
    });
  }

  private finish(outcome: JobOutcome): void {
    this.running.delete(outcome.jobId);
    this.unacknowledged.set(outcome.jobId, outcome);
    this.emit({ type: 'job-host/finished', outcome });
  }

  private emit(report: JobHostReport): void {
    for (const listener of this.listeners) listener(report);
  }
}

type Action =
  { kind: 'start' } | { kind: 'output' | 'complete' | 'cancel'; job: number } | { kind: 'restart'; hostLost: boolean };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constant<Action>({ kind: 'start' }),
  fc.record({ kind: fc.constantFrom('output' as const, 'complete' as const, 'cancel' as const), job: fc.nat(5) }),
  fc.record({ kind: fc.constant('restart' as const), hostLost: fc.boolean() }),
);

const settle = async () => {
  for (let round = 0; round < 3; round++) await new Promise((resolve) => setImmediate(resolve));
};

describe('jobs against the real runtime, over generated interleavings of output, cancel, completion and restarts', () => {
  it('every job has exactly one final state, nothing follows it, none completes without a result, none runs twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 14 }), async (actions) => {
        const store = new MemoryEventStore();
        const host = new FakeHost();
        let ids = 0;
        const makeRuntime = () => testRuntime({ store, newId: () => `id-${++ids}`, jobHost: host });
        let runtime = makeRuntime();
        await runtime.append(sessionId, [
          { type: 'turn/started', sessionId, turnId, time: 1, data: { userItemId: 'user', text: 'go' } },
        ]);
        const jobIds = () =>
          store
            .read(sessionId, 0)
            .then((events) =>
              events.filter((event) => event.type === 'job/created').map((event) => (event as { jobId: string }).jobId),
            );
        let calls = 0;
        let accepted = 0;
        for (const step of actions) {
          const known = await jobIds();
          if (step.kind === 'start') {
            calls += 1;
            const started = await runtime.executeTool({
              sessionId,
              turnId,
              stepId: 'step',
              toolCallId: `call-${calls}`,
              toolName: 'runScript',
              input: { code: 'work()', background: true },
            });
            // A fifth job while four run is refused with a message, never queued silently.
            if (started.status === 'completed') accepted += 1;
            else expect(JSON.stringify(started.output)).toContain('At most 4 jobs run at once');
          } else if (step.kind === 'restart') {
            host.listeners = [];
            if (step.hostLost) host.lose();
            runtime = makeRuntime();
            host.hello();
            await runtime.read(sessionId, 0);
            await runtime.subscribe(sessionId, () => undefined);
          } else {
            const jobId = known[step.job % Math.max(1, known.length)];
            if (!jobId) continue;
            if (step.kind === 'output') host.output(jobId);
            if (step.kind === 'complete') host.complete(jobId);
            if (step.kind === 'cancel') await runtime.cancelJob(sessionId, jobId, `cancel-${ids++}`);
          }
          await settle();
        }
        // The end: the host is lost, and a restarted runtime settles what the log still says runs.
        host.listeners = [];
        host.lose();
        runtime = makeRuntime();
        host.hello();
        await runtime.subscribe(sessionId, () => undefined);
        await settle();

        const events = await store.read(sessionId, 0);
        for (const jobId of await jobIds()) {
          const own = events.filter(
            (event): event is AgentEvent & { jobId: string } => 'jobId' in event && event.jobId === jobId,
          );
          const finals = own.filter((event) => (JOB_FINAL_TYPES as readonly string[]).includes(event.type));
          expect(finals).toHaveLength(1);
          const finalIndex = own.indexOf(finals[0]);
          // After the final state only a stale cancel's own state and the fact notification that the job ended.
          const after = own.slice(finalIndex + 1);
          expect(after.every((event) => ['job-command/state', 'notify/job-finished'].includes(event.type))).toBe(true);
          expect(after.filter((event) => event.type === 'notify/job-finished').length).toBeLessThanOrEqual(1);
          if (finals[0].type === 'job/completed') expect(finals[0].data.result).toBe('42');
          expect(host.starts.get(jobId)).toBe(1);
        }
        expect(events.filter((event) => event.type === 'job/created')).toHaveLength(accepted);
      }),
      { numRuns: 40 },
    );
  });
});
