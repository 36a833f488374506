import type { AgentEvent, TurnCommandKind } from '../protocol/agent-event';
import type { BlobRef } from '../protocol/blob-ref';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { NotifyFactType } from '../protocol/notify-events';
import type { RewindMode } from '../protocol/rewind-events';
import type { TokenUsage } from '../protocol/token-usage';
import type { MessageAttachment } from '../protocol/upload-events';
import type { UploadView } from './upload-view';
import type { JobView } from './job-view';
import type { ViewArtifactView } from './view-artifact-view';

/** `paused`: open, but nobody drives it until the person resumes it (or stops it). */
export type TurnStatus = 'running' | 'paused' | 'completed' | 'aborted' | 'interrupted';
export type ItemStatus = 'streaming' | 'completed' | 'interrupted';
export type ToolCallStatus = 'streaming' | 'requested' | 'running' | 'done' | 'failed' | 'unknown' | 'denied';

export type TurnEntry =
  | { kind: 'item'; key: string }
  | { kind: 'tool'; toolCallId: string }
  | { kind: 'error'; index: number }
  | { kind: 'command'; commandId: string };

export interface TurnState {
  turnId: string;
  userItemId: string;
  userText: string;
  status: TurnStatus;
  startedAt: number;
  endedAt?: number;
  reason?: string;
  retryOf?: string;
  /** The failed call (its first attempt) this turn runs again; its text is the note the model reads. */
  retriesToolCall?: string;
  /** The failed model request this turn runs again (the turn and attempt it failed in); the turn has no message. */
  retriesStep?: { turnId: string; attemptId: string };
  /** Files sent with the message. */
  attachments?: MessageAttachment[];
  /** The MCP App contexts (`appContexts` by contextId) the message carried to the model. */
  appContextIds?: string[];
  entries: TurnEntry[];
  errors: { attemptId: string; message: string; code: string }[];
  retry?: { until: number; delayMs: number; reason: string };
  /** The sum of its steps' reported usage; absent while no step reported any. */
  usage?: TokenUsage;
  /** The same sum kept per model ('' for steps that named none), so each model's price applies. */
  usageByModel?: Record<string, TokenUsage>;
}

export interface ItemState {
  key: string;
  itemId: string;
  attemptId: string;
  turnId: string;
  stepId: string;
  kind: 'assistant' | 'reasoning';
  text: string;
  status: ItemStatus;
  deltaCount: number;
  reason?: string;
}

export interface ToolCallState {
  toolCallId: string;
  turnId: string;
  stepId?: string;
  toolName: string;
  /** The target the call acts on, once the runtime has resolved it (tool/requested, tool/started). */
  targetId?: string;
  argumentsPreview: string;
  previewCount: number;
  input?: JsonValue;
  status: ToolCallStatus;
  output?: JsonValue;
  error?: string;
  startedAt?: number;
  durationMs?: number;
  /** A retry's attempt: the call it runs again (that call's first attempt) and its number, 2 or more. */
  retryOf?: string;
  attempt?: number;
}

export interface RequestState {
  requestId: string;
  turnId: string;
  kind: 'ask' | 'approval';
  toolCallId?: string;
  status: 'pending' | 'answered' | 'allowed' | 'denied' | 'expired';
  summary: string;
  expiresAt?: number;
  targetId?: string;
  /** An approval that asks for access to this site (a page tool's first call there). */
  siteOrigin?: string;
  /** The stored images the card shows (an MCP App's message). */
  images?: BlobRef[];
  answerSchema?: JsonValue;
  answer?: JsonValue;
  scope?: 'once' | 'target-session';
  reason?: string;
  cause?: 'timeout' | 'turn-ended' | 'context-lost';
}

export interface CommandState {
  commandId: string;
  turnId: string;
  kind: TurnCommandKind;
  state: string;
  /** A steer's text; a resume's note to the model. */
  text?: string;
  /** A resume's fresh observation of the page, sent to the model with the note. */
  observation?: JsonValue;
}

/**
 * The conversation's turns as a tree, from `turn/started` and `branch/switched`: every turn keeps its place in
 * `turnOrder` (a branch is new history, never a deletion) and the branch in view is the path to `leaf`.
 */
export interface BranchTree {
  /** Each turn's parent: the turn before it on its branch; null for a first message. */
  parents: Record<string, string | null>;
  /** Each turn's children in log order, by parent ('' for first messages): the turns that followed it. */
  children: Record<string, string[]>;
  /** A regeneration's original turn: the one whose message it answers again. */
  answerOf: Record<string, string>;
  /** The last turn of the branch in view; null before the first turn. */
  leaf: string | null;
  /** The last `rewind/applied` while no turn started or switch followed it: where the view was, and the mode. */
  rewound?: RewoundView;
}

/** A rewind the panel still shows: to just before `turnId`'s message, from the branch that ended at `fromLeaf`. */
export interface RewoundView {
  turnId: string;
  fromLeaf: string | null;
  mode: RewindMode;
}

export interface ClientState {
  sessionId: string;
  title: string;
  generation: number;
  lastSeq: number;
  /** Durable events that arrived past a gap; applied once the gap is filled. */
  pending: AgentEvent[];
  gap: { expected: number; received: number } | null;
  /** Every turn in log order, on every branch; `branches` says which of them are in view. */
  turnOrder: string[];
  turns: Record<string, TurnState>;
  branches: BranchTree;
  /** Items that are complete or interrupted. */
  items: Record<string, ItemState>;
  /**
   * Items still streaming, kept apart from `items` so that a batch of deltas copies this small table and not
   * every item of a long conversation; an item moves to `items` once it is final. Read both with `itemOf`.
   */
  streaming: Record<string, ItemState>;
  toolCalls: Record<string, ToolCallState>;
  requests: Record<string, RequestState>;
  commands: Record<string, CommandState>;
  jobs: Record<string, JobView>;
  notifications: { notificationId: string; level: string; message: string }[];
  /** Fact notifications (`notify/*`) by notificationId. */
  facts: Record<string, FactNotice>;
  /** Every file attached in this conversation, by `uploadId`, in its latest state. */
  uploads: Record<string, UploadView>;
  /** Product-rendered artifacts (showArtifact) by artifactId, with all their versions. */
  viewArtifacts: Record<string, ViewArtifactView>;
  /** The sum of every step's reported usage in the conversation; absent while no step reported any. */
  usage?: TokenUsage;
  usageByModel?: Record<string, TokenUsage>;
  /** How many turns of the conversation come before the first one in `turnOrder`, not loaded yet. */
  olderTurns: number;
  /** What MCP Apps told the model (`mcp-app/context`), by contextId; a message names those it carried. */
  appContexts?: Record<string, AppContextView>;
  /** Every `context/compacted` of the conversation, in log order; later requests send the newest one's summary. */
  compactions?: CompactionView[];
  /** Per model: the tokenizer's estimates and the provider's input tokens summed over the steps that had both. */
  calibration?: Record<string, PromptCalibration>;
  /** The prompt of the latest step that said: the input tokens its provider reported, else the tokenizer's estimate. */
  lastPrompt?: { model: string; tokens: number; reported: boolean };
}

export interface AppContextView {
  contextId: string;
  seq: number;
  time: number;
  /** The app's opening in the stage: a later context of the same one replaces this one. */
  targetId: string;
  app: string;
  serverName: string;
  text: string;
  structuredContent?: JsonObject;
  /** The images it gave, sent to the model after the fence. */
  images?: BlobRef[];
  /** The fence's marker, drawn when it was recorded. */
  marker: string;
}

export interface CompactionView {
  compactionId: string;
  seq: number;
  time: number;
  throughTurnId: string;
  throughStepId?: string;
  fromSeq: number;
  toSeq: number;
  summary: string;
  summaryTokens: number;
  coveredTokens: number;
  method: 'model' | 'digest';
  trigger: 'threshold' | 'user';
  fallbackReason?: string;
}

export interface PromptCalibration {
  estimatedTokens: number;
  reportedTokens: number;
  steps: number;
}

export interface FactNotice {
  notificationId: string;
  type: NotifyFactType;
  seq: number;
  time: number;
  level: 'info' | 'warning';
  message: string;
  turnId?: string;
  /** The fact it tells of. */
  reference:
    | { kind: 'job'; jobId: string }
    | { kind: 'budget'; budget: 'conversation' | 'day' }
    | {
        kind: 'security';
        warning: 'blocked-request' | 'injection-flagged';
        toolCallId?: string;
        targetId?: string;
        url?: string;
      }
    | { kind: 'site'; origin: string };
  dismissed: boolean;
}

export function initialClientState(sessionId: string, generation = 0): ClientState {
  return {
    sessionId,
    title: 'New chat',
    generation,
    lastSeq: 0,
    pending: [],
    gap: null,
    turnOrder: [],
    turns: {},
    branches: { parents: {}, children: {}, answerOf: {}, leaf: null },
    items: {},
    streaming: {},
    toolCalls: {},
    requests: {},
    commands: {},
    jobs: {},
    notifications: [],
    facts: {},
    uploads: {},
    viewArtifacts: {},
    olderTurns: 0,
  };
}

export function itemOf(state: Pick<ClientState, 'items' | 'streaming'>, key: string): ItemState | undefined {
  return state.streaming[key] ?? state.items[key];
}

export function itemKey(itemId: string, attemptId: string): string {
  return `${itemId}/${attemptId}`;
}
