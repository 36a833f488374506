import { TARGET_ARTIFACT_LEDGER } from '../authored-targets/target-artifact-session-feature';
import { JOB_LEDGER } from '../jobs/job-session-feature';
import type { SessionProjection } from '../session-log/session-projection';
import { VIEW_ARTIFACT_LEDGER } from '../view-artifacts/view-artifact-projection';
import { REQUEST_BOOK } from '../human-loop/request-book-feature';
import { REWIND_BOOK } from './rewind-book';

/** Every feature's projection of a session, in the order events reach them; a snapshot's book holds their parts. */
export const SESSION_PROJECTIONS: readonly SessionProjection<unknown>[] = [
  REQUEST_BOOK,
  JOB_LEDGER,
  TARGET_ARTIFACT_LEDGER,
  VIEW_ARTIFACT_LEDGER,
  REWIND_BOOK,
];
