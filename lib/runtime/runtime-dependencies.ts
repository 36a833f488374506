import type { BlobStore } from '../files/blob-store';
import type { JobHostDriver } from '../jobs/job-control';
import type { AgentEvent } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { ToolbarEditHistory } from '../protocol/toolbar-edit';
import type { EventStore } from '../session-log/event-store';
import type { SessionLogOptions } from '../session-log/session-log';
import type { RewindStage } from './rewind-effects';
import type { ToolExecutionAccess } from './tool-execution';

/** What a Runtime is built on: the store, the clock and ids, and the services outside it (each optional but the tools). */
export interface RuntimeDependencies extends Pick<
  ToolExecutionAccess,
  'executeTool' | 'recoverTool' | 'approvalRequirement'
> {
  store: EventStore;
  now(): number;
  newId(): string;
  /** How long an unanswered question stays answerable. */
  askExpiresAfterMs?(): Promise<number>;
  /** How long one `executeTool` request waits for an answer before telling the caller to ask again. */
  longPollMs?: number;
  /** Keep a snapshot per session (every N durable events, written a while later); none when absent. */
  snapshots?: SessionLogOptions['snapshots'];
  /** Where runScript runs; without one the job tools answer that running code is not available. */
  jobHost?: JobHostDriver;
  /** Where authored targets keep their parts; without one createTarget and updateTarget are not available. */
  blobStore?: BlobStore;
  /** The page as it is now for a resumed turn, the session's older observations retired (lib/page-tools/page-link.ts). */
  freshObservation?(sessionId: string, callId: string): Promise<JsonValue | undefined>;
  /** Told of each event as it is recorded (never of a replay); it must not throw. */
  onRecorded?(event: AgentEvent): void;
  /** Where a rewind's effects outside the log go; without one, rewinds stay pending (see RewindEffects). */
  rewindStage?: RewindStage;
  /** The toolbar's changes of target values, which a rewind counts as the conversation's own; none without it. */
  toolbarEdits?(): Promise<ToolbarEditHistory>;
}
