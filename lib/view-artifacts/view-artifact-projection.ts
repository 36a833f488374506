import type { SessionProjection } from '../session-log/session-projection';
import { ViewArtifactLedger } from './view-artifact-ledger';

/** Each session's shown artifacts, rebuilt from a snapshot's reduced state (its artifacts table holds every version). */
export const VIEW_ARTIFACT_LEDGER: SessionProjection<ViewArtifactLedger> = {
  start: (head) => (head ? ViewArtifactLedger.restored(head.state.viewArtifacts) : new ViewArtifactLedger()),
  project: (ledger, event) => ledger.observe(event),
};
