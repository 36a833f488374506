import type { AgentEvent, AgentEventType } from '../protocol/agent-event';
import { APP_CONTEXT_APPLIERS } from './apply-app-context-event';
import { BRANCH_APPLIERS } from './apply-branch-event';
import { COMPACTION_APPLIERS } from './apply-compaction-event';
import { HUMAN_LOOP_APPLIERS } from './apply-human-loop-event';
import { ITEM_APPLIERS } from './apply-item-event';
import { JOB_APPLIERS } from './apply-job-event';
import { NOTICE_APPLIERS } from './apply-notify-event';
import { SESSION_APPLIERS } from './apply-session-event';
import { STEP_APPLIERS } from './apply-step-event';
import { TOOL_APPLIERS } from './apply-tool-event';
import { TURN_APPLIERS } from './apply-turn-event';
import { UPLOAD_APPLIERS } from './apply-upload-event';
import { VIEW_ARTIFACT_APPLIERS } from './apply-view-artifact-event';
import { ignoreEvent, type EventApplier, type EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

/** Every event type's applier: the compiler refuses a type without one. */
const EVENT_APPLIERS: EventAppliers = {
  ...SESSION_APPLIERS,
  ...TURN_APPLIERS,
  ...STEP_APPLIERS,
  ...ITEM_APPLIERS,
  ...TOOL_APPLIERS,
  ...HUMAN_LOOP_APPLIERS,
  ...BRANCH_APPLIERS,
  ...NOTICE_APPLIERS,
  ...UPLOAD_APPLIERS,
  ...JOB_APPLIERS,
  ...VIEW_ARTIFACT_APPLIERS,
  ...COMPACTION_APPLIERS,
  ...APP_CONTEXT_APPLIERS,
  'presence/typing': ignoreEvent,
  'blob/referenced': ignoreEvent,
  'artifact/referenced': ignoreEvent,
  // Authored targets are listed by the runtime (listTargets, the toolbar popup); the conversation shows their tool calls.
  'artifact/created': ignoreEvent,
  'artifact/validating': ignoreEvent,
  'artifact/ready': ignoreEvent,
  'artifact/rejected': ignoreEvent,
  'artifact/superseded': ignoreEvent,
  'artifact/permission-granted': ignoreEvent,
  'artifact/permission-revoked': ignoreEvent,
};

// A Map rather than the object: a type no applier knows changes nothing, and never reaches Object's prototype.
const APPLIERS = new Map(Object.entries(EVENT_APPLIERS) as [AgentEventType, EventApplier<AgentEventType>][]);

/** Applies one in-order event to the working copy, through its family's applier. */
export function applyEvent(copy: WorkingCopy, event: AgentEvent): void {
  APPLIERS.get(event.type)?.(copy, event);
}
