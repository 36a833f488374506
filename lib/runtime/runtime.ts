import { isClientWritable, type AgentEvent, type AgentEventDraft } from '../protocol/agent-event';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';
import type { FormActionRequest, FormActionResult } from '../forms/form-answer';
import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import { attachTargetArtifacts } from '../authored-targets/target-artifact-session-feature';
import type { SessionRecord } from '../protocol/session-record';
import type { JobControl, JobCommandResult } from '../jobs/job-control';
import { attachJobs } from '../jobs/job-session-feature';
import type { ViewArtifactControl } from '../view-artifacts/view-artifact-control';
import { attachViewArtifacts } from '../view-artifacts/view-artifact-projection';
import { SessionLog, type EventListener, type Subscription, type TurnPage } from '../session-log/session-log';
import { OPEN_WORK } from '../session-log/open-work';
import type { RewindMode } from '../protocol/rewind-events';
import type { RewindPreview, RewindResult } from '../protocol/rewind-preview';
import { HumanLoop } from '../human-loop/human-loop';
import { REQUEST_BOOK, requestBookFeature } from '../human-loop/request-book-feature';
import { SESSION_PROJECTIONS } from './session-projections';
import type { ToolServices } from '../tools/tool-registry';
import { ToolExecution } from './tool-execution';
import { TurnCommands, type CommandResult, type ResumeResult } from './turn-commands';
import { TurnOwners, type OwnerListener } from './turn-owners';
import { TurnEnds, isNotEndedAgain } from './turn-ends';
import { retryToolCall, type ToolRetryAccess, type ToolRetryRequest } from './tool-retry';
import { runAppToolCall, type AppToolCall, type AppToolCallAccess } from './app-tool-call';
import { appCallOwnership } from './app-call-ownership';
import { forkSession, type ForkAccess } from './fork-session';
import { importSession, type ImportAccess, type SessionImportResult } from './import-session';
import { ownToolsFirst } from './own-tools-first';
import type { RuntimeDependencies } from './runtime-dependencies';
import { attachRewinds, type SessionRewinds } from './session-rewinds';

export type { CommandResult } from './turn-commands';
export type { SessionImportResult } from './import-session';
export type { RuntimeDependencies } from './runtime-dependencies';
export { WINDOW_TURNS, type Subscription, type TurnPage } from '../session-log/session-log';

/**
 * The single writer of every session's event log: the log core composed with the features that project it. Each
 * request goes to the module of its feature (turn commands and ends, tool execution and retry, MCP App calls, fork,
 * import, rewind); this class only wires them to the log.
 */
export class Runtime {
  private readonly log: SessionLog;
  private readonly owners = new TurnOwners();
  private readonly humanLoop: HumanLoop;
  private readonly commands: TurnCommands;
  private readonly turnEnds: TurnEnds;
  private readonly toolExecution: ToolExecution;
  private readonly jobs: JobControl;
  private readonly viewArtifacts: ViewArtifactControl;
  private readonly rewinds: SessionRewinds;
  private readonly appCalls: AppToolCallAccess;
  private readonly retries: ToolRetryAccess;
  /** What forking and importing a conversation need of the log and the blob store. */
  private readonly copies: ForkAccess & ImportAccess;
  /** Model-authored targets (createTarget, updateTarget), their versions and grants. */
  readonly targetArtifacts: TargetArtifactControl;

  constructor(private readonly dependencies: RuntimeDependencies) {
    const { store, now, newId } = dependencies;
    const log = new SessionLog({
      store,
      now,
      projections: SESSION_PROJECTIONS,
      ...(dependencies.snapshots ? { snapshots: dependencies.snapshots } : {}),
      ...(dependencies.onRecorded ? { onRecorded: dependencies.onRecorded } : {}),
    });
    this.log = log;
    const commitDrafts = (sessionId: string, drafts: AgentEventDraft[]) => log.commit(sessionId, drafts);
    const toolEvents = (sessionId: string, toolCallId: string) => log.toolEvents(sessionId, toolCallId);
    const book = (sessionId: string) => log.state(sessionId, REQUEST_BOOK);
    const core = { lock: log.lock, now, newId, commitDrafts, toolEvents, book };
    this.jobs = attachJobs(log, { now, newId, ...(dependencies.jobHost ? { host: dependencies.jobHost } : {}) });
    this.viewArtifacts = attachViewArtifacts(log, { now, newId });
    const blobStore = dependencies.blobStore;
    this.targetArtifacts = attachTargetArtifacts(log, { now, newId, ...(blobStore ? { blobs: blobStore } : {}) });
    this.humanLoop = new HumanLoop({
      ...core,
      ...(dependencies.askExpiresAfterMs ? { askExpiresAfterMs: dependencies.askExpiresAfterMs } : {}),
      ...(dependencies.longPollMs !== undefined ? { longPollMs: dependencies.longPollMs } : {}),
    });
    this.commands = new TurnCommands({
      ...core,
      stopTurn: (sessionId, turnId, commandId) => this.turnEnds.stop(sessionId, turnId, commandId),
      ...(dependencies.freshObservation ? { freshObservation: dependencies.freshObservation } : {}),
    });
    this.turnEnds = new TurnEnds({
      ...core,
      owners: this.owners,
      openWork: (sessionId) => log.openWork(sessionId),
      submitCommand: (command) => this.commands.submitCommand(command),
    });
    this.toolExecution = new ToolExecution({
      ...core,
      gate: (request, requirement) => this.humanLoop.gate(request, requirement),
      ...ownToolsFirst(() => this.ownServices(), dependencies),
      ...(dependencies.approvalRequirement ? { approvalRequirement: dependencies.approvalRequirement } : {}),
    });
    const execute = (request: ToolExecutionRequest) => this.toolExecution.execute(request);
    const isRunning = (sessionId: string, toolCallId: string) => this.toolExecution.isRunning(sessionId, toolCallId);
    this.appCalls = { ...core, execute, ...appCallOwnership(this.owners) };
    this.retries = {
      ...core,
      isTurnOpen: async (sessionId, turnId) => (await book(sessionId)).isTurnOpen(turnId),
      isRunning,
      execute,
    };
    const read = (sessionId: string, afterSeq: number) => log.read(sessionId, afterSeq);
    this.copies = {
      ...core,
      read,
      append: (sessionId, drafts) => this.append(sessionId, drafts),
      lastSeq: (sessionId) => store.lastSeq(sessionId),
      ...(blobStore ? { blobStore } : {}),
    };
    log.register(requestBookFeature(isRunning));
    this.rewinds = attachRewinds(log, {
      now,
      read,
      restoreDrafts: (sessionId, artifactId, version) =>
        this.targetArtifacts.restoreDrafts(sessionId, artifactId, version),
      ...(dependencies.toolbarEdits ? { toolbarEdits: dependencies.toolbarEdits } : {}),
      ...(dependencies.rewindStage ? { stage: dependencies.rewindStage } : {}),
    });
  }

  /** The services of the runtime's own tools (jobs, shown artifacts, authored targets); every other runs as the dependencies say. */
  private ownServices(): Partial<ToolServices> {
    return { jobs: this.jobs, 'view-artifacts': this.viewArtifacts, 'authored-targets': this.targetArtifacts };
  }

  /** Validates, stamps and records events a client proposes; rejects the whole batch on any invalid one. */
  append(sessionId: string, drafts: readonly unknown[], batchId?: string): Promise<number> {
    return this.log.append(sessionId, drafts, batchId, isNotEndedAgain);
  }

  /** A client's batch: refused whole when it holds an event that only the runtime writes. */
  async appendFromClient(sessionId: string, drafts: readonly { type: string }[], batchId?: string): Promise<number> {
    const refused = drafts.find((draft) => !isClientWritable(draft.type));
    if (refused) throw new Error(`Only the runtime records ${refused.type} events.`);
    return this.append(sessionId, drafts, batchId);
  }

  /**
   * The log so far, its last seq and every later event, handed out atomically (see SessionLog.subscribe). A rewind
   * of the session whose effects failed earlier (the stage did not answer) is tried again.
   */
  async subscribe(sessionId: string, listener: EventListener): Promise<Subscription> {
    const subscription = await this.log.subscribe(sessionId, listener);
    void this.rewinds.completePending(sessionId).catch(() => undefined);
    return subscription;
  }

  /** The turns before position `before`, up to `limit` of them, as they are at the log's last seq. */
  turnsBefore(sessionId: string, before: number, limit: number): Promise<TurnPage> {
    return this.log.turnsBefore(sessionId, before, limit);
  }

  read(sessionId: string, afterSeq: number, limit?: number): Promise<AgentEvent[]> {
    return this.log.read(sessionId, afterSeq, limit);
  }

  listSessions(): Promise<SessionRecord[]> {
    return this.log.listSessions();
  }

  /** Deletes a session's log; refused while one of its turns is still open. */
  deleteSession(sessionId: string): Promise<void> {
    return this.log.deleteSession(sessionId, (states) =>
      states.of(OPEN_WORK).openTurns.size > 0
        ? 'A reply is still running in this conversation; stop it before deleting.'
        : undefined,
    );
  }

  /** Records fact notifications (`notify/*`) the runtime raises: a budget reached, a job finished, a security warning. */
  recordNotifications(sessionId: string, drafts: AgentEventDraft[]): Promise<void> {
    if (drafts.some((draft) => !draft.type.startsWith('notify/')))
      throw new Error('recordNotifications records notify/* events only.');
    return this.log.lock.run(sessionId, () => this.log.commit(sessionId, drafts));
  }

  /** What an MCP App told the model (`mcp-app/context`), in its conversation's log under the session lock. */
  recordAppContext(sessionId: string, draft: AgentEventDraft): Promise<void> {
    if (draft.type !== 'mcp-app/context') throw new Error('recordAppContext records mcp-app/context events only.');
    return this.log.lock.run(sessionId, () => this.log.commit(sessionId, [draft]));
  }

  /** A new conversation with the branch of `sessionId` up to `turnId` (see `forkSession`); returns its id. */
  forkSession(sessionId: string, turnId: string): Promise<string> {
    return forkSession(this.copies, sessionId, turnId);
  }

  /** Writes an exported conversation the panel staged in the blob store (see `importSession`). */
  importSession(stagingId: string, documentBlobId: string): Promise<SessionImportResult> {
    return importSession(this.copies, stagingId, documentBlobId);
  }

  rewindPreview(sessionId: string, turnId: string): Promise<RewindPreview> {
    return this.rewinds.preview(sessionId, turnId);
  }

  rewindSession(sessionId: string, turnId: string, mode: RewindMode, rewindId: string): Promise<RewindResult> {
    return this.rewinds.rewind(sessionId, turnId, mode, rewindId);
  }

  /** Runs a tool call at most once per toolCallId, however often it is asked for. */
  executeTool(request: ToolExecutionRequest): Promise<ToolExecutionResult> {
    return this.toolExecution.execute(request);
  }

  /** An MCP App's own tool call, in a turn of its own with the normal approvals (see app-tool-call.ts). */
  runAppToolCall(call: AppToolCall): Promise<ToolExecutionResult> {
    return runAppToolCall(this.appCalls, call);
  }

  /** Runs a failed call again as a new attempt in an open turn (see `retryToolCall`). */
  retryToolCall(request: ToolRetryRequest): Promise<ToolExecutionResult> {
    return retryToolCall(this.retries, request);
  }

  decideApproval(decision: Parameters<HumanLoop['decideApproval']>[0]): ReturnType<HumanLoop['decideApproval']> {
    return this.humanLoop.decideApproval(decision);
  }

  answerAsk(answer: Parameters<HumanLoop['answerAsk']>[0]): ReturnType<HumanLoop['answerAsk']> {
    return this.humanLoop.answerAsk(answer);
  }

  /** A form's submission from the panel: checked against its question's form, then recorded as the answer. */
  answerForm(action: FormActionRequest): Promise<FormActionResult> {
    return this.humanLoop.answerForm(action);
  }

  submitCommand(command: Parameters<TurnCommands['submitCommand']>[0]): Promise<CommandResult> {
    return this.commands.submitCommand(command);
  }

  commandStatus(sessionId: string, commandId: string): Promise<CommandResult> {
    return this.commands.commandStatus(sessionId, commandId);
  }

  /** Stop on a job card: a cancel command aimed at one job. */
  cancelJob(sessionId: string, jobId: string, commandId: string): Promise<JobCommandResult> {
    return this.jobs.cancel(sessionId, jobId, commandId);
  }

  withdrawSteer(sessionId: string, commandId: string): Promise<CommandResult> {
    return this.commands.withdrawSteer(sessionId, commandId);
  }

  takeSteers(sessionId: string, turnId: string): Promise<{ commandId: string; text: string }[]> {
    return this.commands.takeSteers(sessionId, turnId);
  }

  takePause(sessionId: string, turnId: string): Promise<boolean> {
    return this.commands.takePause(sessionId, turnId);
  }

  resumeTurn(command: Parameters<TurnCommands['resumeTurn']>[0]): Promise<ResumeResult> {
    return this.commands.resumeTurn(command);
  }

  /** Stop, as the panel's: a cancel command for every running turn of the session (a paused one is not acting). */
  stopRunningTurns(sessionId: string): Promise<CommandResult[]> {
    return this.turnEnds.stopRunning(sessionId);
  }

  registerOwner(ownerId: string, listener: OwnerListener): void {
    this.owners.register(ownerId, listener);
  }

  /** A client announces that it drives a turn; when it goes away, the turn is recorded as interrupted. */
  claimTurn(ownerId: string, turnId: string): void {
    this.owners.claim(ownerId, turnId);
  }

  releaseTurn(ownerId: string, turnId: string): void {
    this.owners.release(ownerId, turnId);
  }

  ownerGone(ownerId: string, sessionIds: Iterable<string>, reason: string): Promise<void> {
    return this.turnEnds.ownerGone(ownerId, sessionIds, reason);
  }

  /** Turns still open in the log whose driver is gone (after a restart) are recorded as interrupted. */
  interruptOrphanedTurns(sessionId: string, reason: string): Promise<void> {
    return this.turnEnds.interruptOrphaned(sessionId, reason);
  }
}
