import type { RewindMode } from '@/lib/protocol/rewind-events';
import type { RewindPreview } from '@/lib/protocol/rewind-preview';
import { createContext, useContext } from 'react';
import type { BranchPlace } from '@/lib/panel/branch-switch';
import type { SiteMode } from '@/lib/settings/site-modes-store';
import type { CommandState, RequestState } from '@/lib/state/client-state';
import type { JobView } from '@/lib/state/job-view';
import type { FormActionOutcome, FormSubmission } from '../artifacts/view-artifacts-context';
import type { SearchHit, SearchResult } from '@/lib/protocol/search-hit';
import type { McpPromptsResult } from '@/lib/protocol/mcp-prompt';
import type { McpResourceDefinition, McpResourcesResult } from '@/lib/protocol/mcp-resource';
import type { RunTimeline } from '@/lib/panel/run-timeline';
import type { McpAppGrant } from '@/lib/protocol/mcp-app-grant';

export type DecisionScope = 'once' | 'target-session';

/**
 * Everything a side-panel component can ask for, provided once by the panel. The requests to the runtime return
 * its word: nothing when it was recorded, else the message to show.
 */
export interface PanelActions {
  /** Sends a message; a line `/<server>:<prompt> …` naming an MCP prompt is filled in by its server first. */
  send(text: string): void;
  /** The user started writing: what a turn runs with starts loading, so that sending does not wait for it. */
  composing(): void;
  /** The enabled MCP servers' prompts: the composer's `/` commands. */
  listPrompts(): Promise<McpPromptsResult>;
  /** While a turn runs, what the user types is added to it (queued until a safe point). */
  steer(text: string): void;
  stop(): void;
  /** Pauses the running turn at its next safe point, for the person to act on the page. */
  pause(): void;
  /** Goes on with the paused turn. */
  resume(): void;
  /** Retry message: sends the turn's message again as a new turn in its place (its steps are left out). */
  retry(turnId: string): void;
  /** Retry step: runs the model request the turn failed in again, after its completed steps (a new attempt). */
  retryStep(turnId: string): void;
  /** Runs a failed tool call again (a new attempt, in a new turn whose first request carries its result). */
  retryToolCall(toolCallId: string): void;
  /** Summarises every turn before the last now (between turns), as a compaction at the threshold would. */
  compact(): void;
  /** Sends an edited message again, as a new branch beside the edited one (which stays). */
  resend(text: string, turnId: string): void;
  /** Answers a turn's message again, as a new branch beside that answer. */
  regenerate(turnId: string): void;
  /** Shows the branch through this turn: another message at its place, or another answer. */
  showBranch(turnId: string, place: BranchPlace): void;
  /** Opens a new conversation that starts with the branch in view up to this turn. */
  fork(turnId: string): void;
  /** What a rewind to just before this turn's message would restore and not undo (the confirmation's lists). */
  previewRewind(turnId: string): Promise<RewindPreview>;
  /** Rewinds to just before this turn's message in a mode; a message when it could not. */
  rewind(turnId: string, mode: RewindMode): Promise<string | undefined>;
  /** Asks for older turns of the conversation, as the reader scrolls up to them. */
  loadOlder(limit: number): void;
  /** Sends the turn a budget refused, once over the budget. */
  sendOverBudget(): void;
  /** Puts the refused turn's text back into the composer. */
  dismissBudgetRefusal(): void;
  dismissError(): void;
  retryConnection(): void;
  openOptions(): void;
  newChat(): void;
  selectSession(sessionId: string): void;
  deleteSession(sessionId: string): void;
  exportSession(sessionId: string): void;
  /** Imports an exported conversation from a file the user picked, and opens it. */
  importSession(file: File): void;
  dismissNotice(): void;
  /** Shows the run timeline of the open conversation, or of one of its turns. */
  openTimeline(turnId?: string): void;
  /** The open conversation's timeline read from its log (one turn's when named). */
  loadTimeline(turnId?: string): Promise<RunTimeline>;
  /** Full-text search over every conversation (the drawer's box). */
  searchConversations(query: string): Promise<SearchResult>;
  /** Opens the conversation of a search result at its turn. */
  openSearchHit(hit: SearchHit): void;
  refreshSessions(): void;
  attachFiles(files: File[]): void;
  /** The enabled MCP servers' resources: the composer's attach menu. */
  listResources(): Promise<McpResourcesResult>;
  /** Reads a resource from its server and attaches it as a file; a failure is reported in the panel. */
  attachResource(resource: McpResourceDefinition): void;
  removeAttachment(uploadId: string): void;
  setPageMode(origin: string, mode: SiteMode): void;
  decide(request: RequestState, decision: 'allow' | 'deny', scope: DecisionScope): Promise<string | undefined>;
  answer(request: RequestState, answer: string | number): Promise<string | undefined>;
  /** Takes back a queued steer; its text returns to the composer. */
  withdraw(command: CommandState): Promise<string | undefined>;
  submitForm(request: RequestState, submission: FormSubmission): Promise<FormActionOutcome>;
  stopJob(job: JobView): Promise<string | undefined>;
  /** Puts a fact notice away (a `notify/dismissed` event; the fact stays in the log). */
  dismissFact(notificationId: string): void;
  /** Deletes a download the agent started from disk and from the browser's list. */
  removeDownload(downloadId: number): Promise<string | undefined>;
  /** Asks for the optional downloads permission (the click is the browser's gesture); a message when refused. */
  allowDownloads(): Promise<string | undefined>;
  /** The origins the user granted MCP Apps. */
  listMcpAppGrants(): Promise<McpAppGrant[]>;
  /** Grants (asking the browser for the origin's host permission, the click being its gesture) or revokes one. */
  setMcpAppGrant(grant: McpAppGrant, granted: boolean): Promise<string | undefined>;
}

const NOT_CONNECTED = 'The panel is not connected.';
const unavailable = async () => NOT_CONNECTED;
const nothing = () => undefined;

export const PanelActionsContext = createContext<PanelActions>({
  send: nothing,
  composing: nothing,
  listPrompts: async () => ({ prompts: [], notes: [] }),
  steer: nothing,
  stop: nothing,
  pause: nothing,
  resume: nothing,
  retry: nothing,
  retryStep: nothing,
  retryToolCall: nothing,
  compact: nothing,
  resend: nothing,
  regenerate: nothing,
  showBranch: nothing,
  fork: nothing,
  previewRewind: () => Promise.reject(new Error(NOT_CONNECTED)),
  rewind: unavailable,
  loadOlder: nothing,
  sendOverBudget: nothing,
  dismissBudgetRefusal: nothing,
  dismissError: nothing,
  retryConnection: nothing,
  openOptions: nothing,
  newChat: nothing,
  selectSession: nothing,
  deleteSession: nothing,
  exportSession: nothing,
  importSession: nothing,
  dismissNotice: nothing,
  openTimeline: nothing,
  loadTimeline: async () => ({ turns: [], entries: [] }),
  searchConversations: async () => {
    throw new Error(NOT_CONNECTED);
  },
  openSearchHit: nothing,
  refreshSessions: nothing,
  attachFiles: nothing,
  listResources: async () => ({ resources: [], notes: [] }),
  attachResource: nothing,
  removeAttachment: nothing,
  setPageMode: nothing,
  decide: unavailable,
  answer: unavailable,
  withdraw: unavailable,
  submitForm: async () => ({ error: NOT_CONNECTED, problems: [] }),
  stopJob: unavailable,
  dismissFact: nothing,
  removeDownload: unavailable,
  allowDownloads: unavailable,
  listMcpAppGrants: async () => [],
  setMcpAppGrant: unavailable,
});

export function usePanelActions(): PanelActions {
  return useContext(PanelActionsContext);
}
