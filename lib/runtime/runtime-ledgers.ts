import type { AgentEvent } from '../protocol/agent-event';
import type { RuntimeBook, StoredSnapshotHead } from '../protocol/stored-snapshot';
import { TargetArtifactLedger } from '../authored-targets/target-artifact-ledger';
import { JobLedger } from '../jobs/job-ledger';
import { RequestBook } from './request-book';

/** What the runtime itself keeps of a session's log, beside the reduced state: all of it is in a snapshot's book. */
export interface RuntimeLedgers {
  book: RequestBook;
  jobs: JobLedger;
  targets: TargetArtifactLedger;
}

/** The ledgers a stored head's book holds, or empty ones for a log read from its start. */
export function restoredLedgers(head: StoredSnapshotHead | undefined): RuntimeLedgers {
  if (!head) return { book: new RequestBook(), jobs: new JobLedger(), targets: new TargetArtifactLedger() };
  return {
    book: RequestBook.restored(head.book),
    jobs: JobLedger.restored(head.book.jobs),
    targets: TargetArtifactLedger.restored(head.book.targets),
  };
}

export function observeLedgers(ledgers: RuntimeLedgers, event: AgentEvent): void {
  ledgers.book.observe(event);
  ledgers.jobs.observe(event);
  ledgers.targets.observe(event);
}

export function storedBook(ledgers: RuntimeLedgers): RuntimeBook {
  return { ...ledgers.book.stored(), jobs: ledgers.jobs.stored(), targets: ledgers.targets.stored() };
}
