import type { FeatureClock, SessionLogAccess } from '../session-log/session-feature';
import type { SessionProjection } from '../session-log/session-projection';
import { ViewArtifactControl } from './view-artifact-control';
import { ViewArtifactLedger } from './view-artifact-ledger';

/** Each session's shown artifacts, rebuilt from a snapshot's reduced state (its artifacts table holds every version). */
export const VIEW_ARTIFACT_LEDGER: SessionProjection<ViewArtifactLedger> = {
  start: (head) => (head ? ViewArtifactLedger.restored(head.state.viewArtifacts) : new ViewArtifactLedger()),
  project: (ledger, event) => ledger.observe(event),
};

/** The showArtifact controller on a session log (it has no hooks: the log's projection is all it keeps). */
export function attachViewArtifacts(log: SessionLogAccess, clock: FeatureClock): ViewArtifactControl {
  return new ViewArtifactControl({
    lock: log.lock,
    now: clock.now,
    newId: clock.newId,
    ledger: (sessionId) => log.state(sessionId, VIEW_ARTIFACT_LEDGER),
    commitDrafts: (sessionId, drafts) => log.commit(sessionId, drafts),
  });
}
