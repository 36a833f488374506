import type { SessionFeature } from '../session-log/session-feature';
import type { SessionProjection } from '../session-log/session-projection';
import type { TargetArtifactControl } from './target-artifact-control';
import { TargetArtifactLedger } from './target-artifact-ledger';

/** Each session's authored targets, kept in a snapshot's book. */
export const TARGET_ARTIFACT_LEDGER: SessionProjection<TargetArtifactLedger> = {
  start: (head) => (head ? TargetArtifactLedger.restored(head.book.targets) : new TargetArtifactLedger()),
  project: (ledger, event) => ledger.observe(event),
  stored: (ledger) => ({ targets: ledger.stored() }),
};

/** A deleted session's targets leave the catalog. */
export function targetArtifactSessionFeature(control: Pick<TargetArtifactControl, 'forget'>): SessionFeature {
  return { forgotten: (sessionId) => control.forget(sessionId) };
}
