import type { AgentEvent } from '../protocol/agent-event';
import type { ViewArtifactView } from '../state/view-artifact-view';
import type { ViewArtifactKind } from '../protocol/view-artifact-data';

export interface ViewArtifactRecord {
  artifactId: string;
  kind: ViewArtifactKind;
  version: number;
  title: string;
}

/** One session's product-rendered artifacts as its log says: each one's current version, and which call made which. */
export class ViewArtifactLedger {
  private readonly artifacts = new Map<string, ViewArtifactRecord>();
  private readonly byCall = new Map<string, { artifactId: string; version: number }>();

  /** The ledger a snapshot's state implies: its artifacts table holds every version `artifact/shown` recorded. */
  static restored(views: Record<string, ViewArtifactView>): ViewArtifactLedger {
    const ledger = new ViewArtifactLedger();
    for (const view of Object.values(views))
      for (const version of view.versions) {
        ledger.artifacts.set(view.artifactId, {
          artifactId: view.artifactId,
          kind: version.content.kind,
          version: version.version,
          title: version.title,
        });
        ledger.byCall.set(version.toolCallId, { artifactId: view.artifactId, version: version.version });
      }
    return ledger;
  }

  observe(event: AgentEvent): void {
    if (event.type !== 'artifact/shown') return;
    const known = this.artifacts.get(event.artifactId);
    if (known && known.version >= event.data.version) return;
    this.artifacts.set(event.artifactId, {
      artifactId: event.artifactId,
      kind: event.data.content.kind,
      version: event.data.version,
      title: event.data.title,
    });
    this.byCall.set(event.toolCallId, { artifactId: event.artifactId, version: event.data.version });
  }

  get(artifactId: string): ViewArtifactRecord | undefined {
    return this.artifacts.get(artifactId);
  }

  /** The version a showArtifact call recorded, if it got that far. */
  madeBy(toolCallId: string): { artifactId: string; version: number } | undefined {
    return this.byCall.get(toolCallId);
  }

  ids(): string[] {
    return [...this.artifacts.keys()];
  }
}
