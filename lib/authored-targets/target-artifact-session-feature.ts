import type { BlobStore } from '../files/blob-store';
import type { FeatureClock, SessionFeature, SessionLogAccess } from '../session-log/session-feature';
import type { SessionProjection } from '../session-log/session-projection';
import { TargetArtifactControl } from './target-artifact-control';
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

/** The authored-targets controller on a session log, its hooks registered. */
export function attachTargetArtifacts(
  log: SessionLogAccess,
  options: FeatureClock & { blobs?: BlobStore },
): TargetArtifactControl {
  const control = new TargetArtifactControl({
    lock: log.lock,
    now: options.now,
    newId: options.newId,
    commitDrafts: (sessionId, drafts) => log.commit(sessionId, drafts),
    ledger: (sessionId) => log.state(sessionId, TARGET_ARTIFACT_LEDGER),
    ...(options.blobs ? { blobs: options.blobs } : {}),
  });
  log.register(targetArtifactSessionFeature(control));
  return control;
}
