import { retryToolCall, type ToolRetryRequest } from './tool-retry';
import { isClientWritable, type AgentEvent, type AgentEventDraft, type AgentEventOf } from '../protocol/agent-event';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';
import type { FormActionRequest, FormActionResult } from '../forms/form-answer';
import type { BlobStore } from '../files/blob-store';
import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import { attachTargetArtifacts } from '../authored-targets/target-artifact-session-feature';
import type { SessionRecord } from '../protocol/session-record';
import type { JsonValue } from '../protocol/json-value';
import type { EventStore } from '../session-log/event-store';
import type { JobControl, JobCommandResult, JobHostDriver } from '../jobs/job-control';
import { attachJobs } from '../jobs/job-session-feature';
import type { ViewArtifactControl } from '../view-artifacts/view-artifact-control';
import { attachViewArtifacts } from '../view-artifacts/view-artifact-projection';
import {
  SessionLog,
  type EventListener,
  type SessionLogOptions,
  type Subscription,
  type TurnPage,
} from '../session-log/session-log';
import type { SessionStates } from '../session-log/session-projection';
import { OPEN_WORK, type OpenWork } from '../session-log/open-work';
import { forkDrafts } from './fork-drafts';
import { importDrafts } from './import-drafts';
import { readSessionExportText } from '../protocol/session-export-document';
import { rewindDraft, rewindPlan } from './rewind-plan';
import type { RewindMode } from '../protocol/rewind-events';
import type { RewindPreview, RewindResult } from '../protocol/rewind-preview';
import { RewindEffects, type RewindStage } from './rewind-effects';
import { REWIND_BOOK } from './rewind-book';
import { errorText } from '../protocol/error-text';
import type { ToolbarEditHistory } from '../protocol/toolbar-edit';
import { HumanLoop } from '../human-loop/human-loop';
import { TurnCommands, type CommandResult, type ResumeResult } from './turn-commands';
import { REQUEST_BOOK, requestBookFeature } from '../human-loop/request-book-feature';
import { SESSION_PROJECTIONS } from './session-projections';
import { TurnOwners, type OwnerListener } from './turn-owners';
import { ToolExecution, type ToolExecutionAccess } from './tool-execution';
import { toolNamed, type ToolServices } from '../tools/tool-registry';
import { executeOn, recoverOn } from '../tools/tool-dispatch';
import { runAppToolCall, type AppToolCall } from './app-tool-call';

export type { CommandResult } from './turn-commands';

/** An imported conversation: its id, whether that is a new one, and how many of its files the export lacked. */
export interface SessionImportResult {
  sessionId: string;
  remapped: boolean;
  missingFiles: number;
}
export { WINDOW_TURNS, type Subscription, type TurnPage } from '../session-log/session-log';

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

/** The owner of the turns an MCP App's own tool calls run in: the runtime itself, never a panel. */
const APP_CALLS_OWNER = 'runtime:mcp-app-calls';

/** The single writer of every session's event log: the log core composed with the features that project it. */
export class Runtime {
  private readonly log: SessionLog;
  private readonly owners = new TurnOwners();
  private readonly humanLoop: HumanLoop;
  private readonly commands: TurnCommands;
  private readonly toolExecution: ToolExecution;
  private readonly jobs: JobControl;
  /** How to stop each MCP App call's turn the runtime drives itself. */
  private readonly appStops = new Map<string, (commandId: string) => void>();
  private readonly viewArtifacts: ViewArtifactControl;
  private readonly rewinds: RewindEffects;
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
    const { lock } = log;
    const commitDrafts = (sessionId: string, drafts: AgentEventDraft[]) => log.commit(sessionId, drafts);
    const toolEvents = (sessionId: string, toolCallId: string) => log.toolEvents(sessionId, toolCallId);
    const book = (sessionId: string) => log.state(sessionId, REQUEST_BOOK);
    this.jobs = attachJobs(log, { now, newId, ...(dependencies.jobHost ? { host: dependencies.jobHost } : {}) });
    this.viewArtifacts = attachViewArtifacts(log, { now, newId });
    this.targetArtifacts = attachTargetArtifacts(log, {
      now,
      newId,
      ...(dependencies.blobStore ? { blobs: dependencies.blobStore } : {}),
    });
    this.humanLoop = new HumanLoop({
      lock,
      now,
      newId,
      book,
      commitDrafts,
      toolEvents,
      ...(dependencies.askExpiresAfterMs ? { askExpiresAfterMs: dependencies.askExpiresAfterMs } : {}),
      ...(dependencies.longPollMs !== undefined ? { longPollMs: dependencies.longPollMs } : {}),
    });
    this.commands = new TurnCommands({
      lock,
      now,
      book,
      commitDrafts,
      stopTurn: (sessionId, turnId, commandId) => this.stopTurn(sessionId, turnId, commandId),
      ...(dependencies.freshObservation ? { freshObservation: dependencies.freshObservation } : {}),
    });
    this.toolExecution = new ToolExecution({
      lock,
      now,
      commitDrafts,
      toolEvents,
      gate: (request, requirement) => this.humanLoop.gate(request, requirement),
      executeTool: (toolName, input, callKey, request) =>
        executeOn(toolNamed(toolName), this.ownServices(), input, { request, callKey }) ??
        dependencies.executeTool(toolName, input, callKey, request),
      recoverTool: (toolName, input, callKey, startedAt, request) =>
        recoverOn(toolNamed(toolName), this.ownServices(), input, { request, callKey, startedAt }) ??
        dependencies.recoverTool?.(toolName, input, callKey, startedAt, request) ??
        Promise.resolve({ kind: 'unknown' }),
      ...(dependencies.approvalRequirement ? { approvalRequirement: dependencies.approvalRequirement } : {}),
    });
    this.owners.register(APP_CALLS_OWNER, ({ turnId, commandId }) => this.appStops.get(turnId)?.(commandId));
    log.register(requestBookFeature((sessionId, toolCallId) => this.toolExecution.isRunning(sessionId, toolCallId)));
    this.rewinds = new RewindEffects({
      lock,
      now,
      commit: commitDrafts,
      book: (sessionId) => log.state(sessionId, REWIND_BOOK),
      read: (sessionId, afterSeq) => log.read(sessionId, afterSeq),
      toolbarEdits: () => this.toolbarEdits(),
      ...(dependencies.rewindStage ? { stage: dependencies.rewindStage } : {}),
    });
    // A session loaded with a rewind whose effects were cut off (the worker stopped) gets them now, once.
    log.register({
      loaded: (sessionId, states) => {
        if (states.of(REWIND_BOOK).all().length > 0)
          void this.rewinds.completePending(sessionId).catch(() => undefined);
      },
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

  /**
   * A new conversation with the history of `sessionId` up to `turnId` (that branch only), its blobs shared by
   * reference: the new conversation's own references keep them after the original is deleted. Returns its id.
   */
  forkSession(sessionId: string, turnId: string): Promise<string> {
    return this.log.lock.run(sessionId, async () => {
      const forkId = this.dependencies.newId();
      const plan = forkDrafts(await this.log.read(sessionId, 0), turnId, forkId, this.dependencies.now());
      if (!plan.ok) throw new Error(plan.reason);
      await this.dependencies.blobStore?.share(sessionId, forkId, plan.blobIds);
      await this.append(forkId, plan.drafts);
      return forkId;
    });
  }

  /**
   * Writes an exported conversation the panel staged in the blob store (its `conversation.json` and files under
   * `stagingId`): read and checked again here, then committed as one log write under the conversation's own id,
   * or a new one when that id is taken (importing the same file twice). The files are shared to it before the
   * commit and taken back if the commit fails; the staging references are freed whatever happens.
   */
  async importSession(stagingId: string, documentBlobId: string): Promise<SessionImportResult> {
    const blobs = this.dependencies.blobStore;
    if (!blobs) throw new Error('This runtime keeps no files, so it cannot import a conversation.');
    try {
      const bytes = await blobs.read(documentBlobId);
      if (!bytes) throw new Error('The conversation to import was not staged.');
      const reading = readSessionExportText(bytes);
      if (!reading.ok) throw new Error(reading.error);
      const plan = importDrafts(reading.document);
      if (!plan.ok) throw new Error(plan.reason);
      const present: string[] = [];
      const missing: string[] = [];
      for (const blobId of plan.blobIds) ((await blobs.referenceCount(blobId)) > 0 ? present : missing).push(blobId);
      const excused = new Set(reading.document.version === 1 ? missing : (reading.document.missingBlobIds ?? []));
      const lacking = missing.find((blobId) => !excused.has(blobId));
      if (lacking) throw new Error(`The file ${lacking} that the conversation names was not imported with it.`);
      const write = async (sessionId: string) => {
        await blobs.share(stagingId, sessionId, present);
        try {
          await this.log.commit(sessionId, plan.drafts(sessionId));
        } catch (error) {
          await blobs.release(sessionId);
          throw error;
        }
      };
      const original = reading.document.session.sessionId;
      const kept = await this.log.lock.run(original, async () => {
        if ((await this.dependencies.store.lastSeq(original)) > 0) return false;
        await write(original);
        return true;
      });
      if (kept) return { sessionId: original, remapped: false, missingFiles: missing.length };
      const copyId = this.dependencies.newId();
      await this.log.lock.run(copyId, () => write(copyId));
      return { sessionId: copyId, remapped: true, missingFiles: missing.length };
    } finally {
      await blobs.release(stagingId);
    }
  }

  private toolbarEdits(): Promise<ToolbarEditHistory> {
    return this.dependencies.toolbarEdits?.() ?? Promise.resolve({ edits: [], dropped: false });
  }

  /** What a rewind to just before `turnId`'s message would restore and what it would not undo, from the log. */
  rewindPreview(sessionId: string, turnId: string): Promise<RewindPreview> {
    return this.log.lock.run(sessionId, async () => {
      const plan = rewindPlan(await this.log.read(sessionId, 0), turnId, await this.toolbarEdits());
      if (!plan.ok) throw new Error(plan.reason);
      return plan.preview;
    });
  }

  /**
   * Rewinds to just before `turnId`'s message: under the lock, `rewind/applied` (the view's new end, with the values
   * it restores) and, in mode `versions`, each authored target's version of then made current as a new version, in
   * one commit; then its effects outside the log (RewindEffects) and `rewind/completed`. `rewindId` is the
   * request's: the same request again (the panel resends it when the worker stopped under it) is the same rewind,
   * answered from the log and completed if it is not yet. When the stage fails, the rewind stands and says so in
   * `unfinished`; its effects are tried again when the conversation is opened.
   */
  async rewindSession(sessionId: string, turnId: string, mode: RewindMode, rewindId: string): Promise<RewindResult> {
    const recorded = await this.log.lock.run(sessionId, async () => {
      const events = await this.log.read(sessionId, 0);
      const earlier = events.find(
        (event): event is AgentEventOf<'rewind/applied'> =>
          event.type === 'rewind/applied' && event.data.rewindId === rewindId,
      );
      if (earlier) return earlier.data;
      const plan = rewindPlan(events, turnId, await this.toolbarEdits());
      if (!plan.ok) throw new Error(plan.reason);
      const restores: AgentEventDraft[] = [];
      const restoredAs = new Map<string, number>();
      if (mode === 'versions')
        for (const { artifactId, version } of plan.preview.versions) {
          const restore = await this.targetArtifacts.restoreDrafts(sessionId, artifactId, version);
          restores.push(...restore.drafts);
          restoredAs.set(artifactId, restore.version);
        }
      const draft = rewindDraft(sessionId, plan, { rewindId, mode, restoredAs }, this.dependencies.now());
      await this.log.commit(sessionId, [draft, ...restores]);
      return draft.data;
    });
    const result: RewindResult = {
      values: recorded.values,
      versions: recorded.versions.map(({ artifactId, version, restoredAs }) => ({
        artifactId,
        restoredFrom: version,
        version: restoredAs ?? version,
      })),
    };
    try {
      await this.rewinds.complete(sessionId, rewindId);
      return result;
    } catch (error) {
      return { ...result, unfinished: errorText(error) };
    }
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

  /** Runs a tool call at most once per toolCallId, however often it is asked for. */
  executeTool(request: ToolExecutionRequest): Promise<ToolExecutionResult> {
    return this.toolExecution.execute(request);
  }

  /** An MCP App's own tool call, in a turn of its own with the normal approvals (see app-tool-call.ts). */
  runAppToolCall(call: AppToolCall): Promise<ToolExecutionResult> {
    const { now, newId } = this.dependencies;
    return runAppToolCall(
      {
        lock: this.log.lock,
        now,
        newId,
        commitDrafts: (sessionId, drafts) => this.log.commit(sessionId, drafts),
        execute: (request) => this.toolExecution.execute(request),
        own: (turnId, onStop) => {
          this.appStops.set(turnId, onStop);
          this.owners.claim(APP_CALLS_OWNER, turnId);
        },
        release: (turnId) => {
          this.appStops.delete(turnId);
          this.owners.release(APP_CALLS_OWNER, turnId);
        },
      },
      call,
    );
  }

  /** Runs a failed call again as a new attempt in an open turn (see `retryToolCall`). */
  retryToolCall(request: ToolRetryRequest): Promise<ToolExecutionResult> {
    return retryToolCall(
      {
        lock: this.log.lock,
        now: this.dependencies.now,
        commitDrafts: (sessionId, drafts) => this.log.commit(sessionId, drafts),
        toolEvents: (sessionId, toolCallId) => this.log.toolEvents(sessionId, toolCallId),
        isTurnOpen: async (sessionId, turnId) => (await this.log.state(sessionId, REQUEST_BOOK)).isTurnOpen(turnId),
        isRunning: (sessionId, toolCallId) => this.toolExecution.isRunning(sessionId, toolCallId),
        execute: (execution) => this.toolExecution.execute(execution),
      },
      request,
    );
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

  resumeTurn(command: {
    sessionId: string;
    turnId: string;
    commandId: string;
    observe: boolean;
  }): Promise<ResumeResult> {
    return this.commands.resumeTurn(command);
  }

  /** Stop, as the panel's: a cancel command for every running turn of the session (a paused one is not acting). */
  async stopRunningTurns(sessionId: string): Promise<CommandResult[]> {
    const running = await this.log.lock.run(sessionId, async () => [...(await this.log.openWork(sessionId)).openTurns]);
    const { newId } = this.dependencies;
    return Promise.all(
      running.map((turnId) => this.submitCommand({ sessionId, turnId, commandId: newId(), kind: 'cancel' })),
    );
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

  async ownerGone(ownerId: string, sessionIds: Iterable<string>, reason: string): Promise<void> {
    const turns = this.owners.remove(ownerId);
    if (turns.size === 0) return;
    for (const sessionId of sessionIds) {
      await this.log.lock.run(sessionId, async () => {
        const work = await this.log.openWork(sessionId);
        for (const turnId of turns) {
          if (work.openTurns.has(turnId)) await this.endOpenTurn(sessionId, work, turnId, reason);
        }
      });
    }
  }

  /** Turns still open in the log whose driver is gone (after a restart) are recorded as interrupted. */
  async interruptOrphanedTurns(sessionId: string, reason: string): Promise<void> {
    await this.log.lock.run(sessionId, async () => {
      const work = await this.log.openWork(sessionId);
      for (const turnId of [...work.openTurns]) {
        if (!this.owners.isOwned(turnId)) await this.endOpenTurn(sessionId, work, turnId, reason);
      }
    });
  }

  /** A cancel for an open turn goes to the panel that drives it; a turn nobody drives is stopped here. */
  private async stopTurn(sessionId: string, turnId: string, commandId: string): Promise<void> {
    const listener = this.owners.listenerFor(turnId);
    // A turn whose driver is gone is stopped here, so a cancel never waits on nobody.
    if (listener) listener({ turnId, commandId });
    else
      await this.endOpenTurn(sessionId, await this.log.openWork(sessionId), turnId, 'Stopped by the user.', commandId);
  }

  /** Ends a turn nobody drives, with its unfinished items: aborted when a cancel command stopped it, else interrupted. */
  private async endOpenTurn(
    sessionId: string,
    work: OpenWork,
    turnId: string,
    reason: string,
    commandId?: string,
  ): Promise<void> {
    const time = this.dependencies.now();
    const end: AgentEventDraft = commandId
      ? { type: 'turn/aborted', sessionId, turnId, commandId, time, data: { reason } }
      : { type: 'turn/interrupted', sessionId, turnId, time, data: { reason } };
    const items = work.itemsOfTurn(turnId).map((item): AgentEventDraft => ({
      type: item.kind === 'assistant' ? 'assistant/interrupted' : 'reasoning/interrupted',
      sessionId,
      turnId,
      stepId: item.stepId,
      attemptId: item.attemptId,
      itemId: item.itemId,
      time,
      data: { text: item.text, reason },
    }));
    await this.log.commit(sessionId, [...items, end]);
  }
}

/** A turn ends once: a driver's late end for a turn the runtime already ended (a cancel, a restart) is not recorded again. */
function isNotEndedAgain(draft: AgentEventDraft, states: SessionStates): boolean {
  const turnId = (draft as { turnId?: string } | undefined)?.turnId ?? '';
  return !(isTurnEnd(draft?.type) && states.of(REQUEST_BOOK).endedTurns.has(turnId));
}

function isTurnEnd(type: string | undefined): boolean {
  return type === 'turn/completed' || type === 'turn/aborted' || type === 'turn/interrupted';
}
