import type { FeatureClock, SessionFeature, SessionLogAccess } from '../session-log/session-feature';
import type { SessionProjection } from '../session-log/session-projection';
import { JobControl, type JobHostDriver } from './job-control';
import { JobLedger } from './job-ledger';

/** Each session's jobs, kept in a snapshot's book. */
export const JOB_LEDGER: SessionProjection<JobLedger> = {
  start: (head) => (head ? JobLedger.restored(head.book.jobs) : new JobLedger()),
  project: (ledger, event) => ledger.observe(event),
  stored: (ledger) => ({ jobs: ledger.stored() }),
};

/** A cancelled turn cancels its jobs; a session loaded with jobs the log says run finds out whether a host has them. */
export function jobSessionFeature(control: Pick<JobControl, 'cancelTurnJobs' | 'reconcile'>): SessionFeature {
  return {
    reactions: {
      // A cancel the store refused leaves the job to end by itself, as the host bounds every run.
      'turn/aborted': (event) => void control.cancelTurnJobs(event.sessionId, event.turnId).catch(() => undefined),
    },
    // Loaded by a runtime that did not start them: orphaned unless a host still has them.
    loaded: (sessionId, states) => {
      if (states.of(JOB_LEDGER).open().length > 0) void control.reconcile(sessionId).catch(() => undefined);
    },
  };
}

/** The jobs controller on a session log, its projection and hooks registered. */
export function attachJobs(log: SessionLogAccess, options: FeatureClock & { host?: JobHostDriver }): JobControl {
  const control = new JobControl({
    lock: log.lock,
    now: options.now,
    newId: options.newId,
    commitDrafts: (sessionId, drafts) => log.commit(sessionId, drafts),
    ledger: (sessionId) => log.state(sessionId, JOB_LEDGER),
    loadedSessions: () => log.loadedSessions(),
    ...(options.host ? { host: options.host } : {}),
  });
  log.register(jobSessionFeature(control));
  return control;
}
