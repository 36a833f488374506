import type { AgentEventOf } from '../protocol/agent-event';
import type { EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

type ViewArtifactEvent = AgentEventOf<'artifact/shown' | 'artifact/action'>;

/**
 * `artifact/shown` adds a version (once: the runtime writes versions in order, each one higher). `artifact/action`
 * changes nothing here: the answer it became is the `ask/answered` written with it.
 */
function applyViewArtifactEvent(copy: WorkingCopy, event: ViewArtifactEvent): void {
  if (event.type === 'artifact/action') return;
  const known = copy.state.viewArtifacts[event.artifactId];
  const versions = known?.versions ?? [];
  if (versions.some((version) => version.version >= event.data.version)) return;
  copy.table('viewArtifacts')[event.artifactId] = {
    artifactId: event.artifactId,
    versions: [
      ...versions,
      {
        version: event.data.version,
        title: event.data.title,
        content: event.data.content,
        toolCallId: event.toolCallId,
        turnId: event.turnId,
        time: event.time,
      },
    ],
  };
}

export const VIEW_ARTIFACT_APPLIERS: EventAppliers<'artifact/shown' | 'artifact/action'> = {
  'artifact/shown': applyViewArtifactEvent,
  'artifact/action': applyViewArtifactEvent,
};
