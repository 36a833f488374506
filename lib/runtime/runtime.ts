import {
  AGENT_EVENT_SCHEMA_VERSION,
  agentEventSchema,
  isClientWritable,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
  type AgentEventType,
} from '../protocol/agent-event';
import type { SessionSnapshot, TurnSlice } from '../protocol/session-snapshot';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';
import { reduceEvents } from '../state/reduce-events';
import { sliceTurns, takeSnapshot } from '../state/session-snapshot';
import type { JobLedger } from '../jobs/job-ledger';
import { ViewArtifactLedger } from '../view-artifacts/view-artifact-ledger';
import { ViewArtifactControl } from '../view-artifacts/view-artifact-control';
import type { FormActionRequest, FormActionResult } from '../forms/form-answer';
import type { BlobStore } from '../files/blob-store';
import { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import type { TargetArtifactLedger } from '../authored-targets/target-artifact-ledger';
import type { SessionRecord } from '../protocol/session-record';
import type { EventStore } from './event-store';
import { JobControl, type JobCommandResult, type JobHostDriver } from '../jobs/job-control';
import { HumanLoop } from './human-loop';
import { TurnCommands, type CommandResult } from './turn-commands';
import { OpenWork } from './open-work';
import type { RequestBook } from './request-book';
import { observeLedgers, restoredLedgers } from './runtime-ledgers';
import { SessionLock } from './session-lock';
import { SnapshotKeeper, type SnapshotKeeperOptions } from './snapshot-keeper';
import { stateOfRows } from './snapshot-advance';
import { TurnOwners, type OwnerListener } from './turn-owners';
import { ToolExecution, type ToolExecutionAccess } from './tool-execution';
import { toolNamed, type ToolServices } from '../tools/tool-registry';
import { executeOn, recoverOn } from '../tools/tool-dispatch';
import { issuesText } from '../protocol/issue-text';

export type { CommandResult } from './turn-commands';

export type EventListener = (event: AgentEvent) => void;

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
  snapshots?: Omit<SnapshotKeeperOptions, 'store'> & {
    /** How many of the last turns a subscription hands out (WINDOW_TURNS unless told). */
    windowTurns?: number;
  };
  /** Where runScript runs; without one the job tools answer that running code is not available. */
  jobHost?: JobHostDriver;
  /** Where authored targets keep their parts; without one createTarget and updateTarget are not available. */
  blobStore?: BlobStore;
  /** Told of each event as it is recorded (never of a replay); it must not throw. */
  onRecorded?(event: AgentEvent): void;
}

export interface Subscription {
  /** The log after `state` (all of it without one), then the transient tail of open items. */
  snapshot: AgentEvent[];
  snapshotSeq: number;
  /** The reduced state of the log's start, when a usable snapshot is stored. */
  state?: SessionSnapshot;
  unsubscribe(): void;
}

/** Older turns of a session, reduced up to `lastSeq`: the page before `before` (a position in the conversation). */
export interface TurnPage {
  before: number;
  olderTurns: number;
  turns: TurnSlice[];
  lastSeq: number;
}

/** How many of the last turns a subscription hands out; older ones are asked for by page. */
export const WINDOW_TURNS = 24;

interface SessionMemory {
  lastSeq: number;
  lastBatchId: string | undefined;
  openWork: OpenWork;
  book: RequestBook;
  jobs: JobLedger;
  viewArtifacts: ViewArtifactLedger;
  targets: TargetArtifactLedger;
  listeners: Set<EventListener>;
}

/** The single writer of every session's event log. */
export class Runtime {
  private readonly lock = new SessionLock();
  private readonly sessions = new Map<string, SessionMemory>();
  private readonly loading = new Map<string, Promise<SessionMemory>>();
  private readonly owners = new TurnOwners();
  private readonly humanLoop: HumanLoop;
  private readonly commands: TurnCommands;
  private readonly toolExecution: ToolExecution;
  private readonly snapshots: SnapshotKeeper | undefined;
  private readonly jobs: JobControl;
  private readonly viewArtifacts: ViewArtifactControl;
  /** Model-authored targets (createTarget, updateTarget), their versions and grants. */
  readonly targetArtifacts: TargetArtifactControl;

  constructor(private readonly dependencies: RuntimeDependencies) {
    const { store } = dependencies;
    this.snapshots =
      dependencies.snapshots && store.snapshots ? new SnapshotKeeper({ ...dependencies.snapshots, store }) : undefined;
    this.jobs = new JobControl({
      lock: this.lock,
      now: dependencies.now,
      newId: dependencies.newId,
      commitDrafts: (sessionId, drafts) => this.commitDrafts(sessionId, drafts),
      ledger: async (sessionId) => (await this.load(sessionId)).jobs,
      loadedSessions: () => [...this.sessions.keys()],
      ...(dependencies.jobHost ? { host: dependencies.jobHost } : {}),
    });
    this.viewArtifacts = new ViewArtifactControl({
      lock: this.lock,
      now: dependencies.now,
      newId: dependencies.newId,
      ledger: async (sessionId) => (await this.load(sessionId)).viewArtifacts,
      commitDrafts: (sessionId, drafts) => this.commitDrafts(sessionId, drafts),
    });
    this.targetArtifacts = new TargetArtifactControl({
      lock: this.lock,
      now: dependencies.now,
      newId: dependencies.newId,
      commitDrafts: (sessionId, drafts) => this.commitDrafts(sessionId, drafts),
      ledger: async (sessionId) => (await this.load(sessionId)).targets,
      ...(dependencies.blobStore ? { blobs: dependencies.blobStore } : {}),
    });
    this.humanLoop = new HumanLoop({
      lock: this.lock,
      now: dependencies.now,
      newId: dependencies.newId,
      book: async (sessionId) => (await this.load(sessionId)).book,
      commitDrafts: (sessionId, drafts) => this.commitDrafts(sessionId, drafts),
      toolEvents: (sessionId, toolCallId) => this.toolEvents(sessionId, toolCallId),
      ...(dependencies.askExpiresAfterMs ? { askExpiresAfterMs: dependencies.askExpiresAfterMs } : {}),
      ...(dependencies.longPollMs !== undefined ? { longPollMs: dependencies.longPollMs } : {}),
    });
    this.commands = new TurnCommands({
      lock: this.lock,
      now: dependencies.now,
      book: async (sessionId) => (await this.load(sessionId)).book,
      commitDrafts: (sessionId, drafts) => this.commitDrafts(sessionId, drafts),
      stopTurn: (sessionId, turnId, commandId) => this.stopTurn(sessionId, turnId, commandId),
    });
    this.toolExecution = new ToolExecution({
      lock: this.lock,
      now: dependencies.now,
      commitDrafts: (sessionId, drafts) => this.commitDrafts(sessionId, drafts),
      toolEvents: (sessionId, toolCallId) => this.toolEvents(sessionId, toolCallId),
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
  }

  /** The services of the runtime's own tools (jobs, shown artifacts, authored targets); every other runs as the dependencies say. */
  private ownServices(): Partial<ToolServices> {
    return { jobs: this.jobs, 'view-artifacts': this.viewArtifacts, 'authored-targets': this.targetArtifacts };
  }

  /** A call's own lifecycle: approvals and asks carry its toolCallId too, but only tool/* events tell whether it ran. */
  private async toolEvents(sessionId: string, toolCallId: string): Promise<AgentEvent[]> {
    return (await this.dependencies.store.readToolCall(sessionId, toolCallId)).filter((event) =>
      event.type.startsWith('tool/'),
    );
  }

  /** Validates, stamps and records events a client proposes; rejects the whole batch on any invalid one. */
  append(sessionId: string, drafts: readonly unknown[], batchId?: string): Promise<number> {
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      if (batchId !== undefined && batchId === memory.lastBatchId) return memory.lastSeq;
      // A turn ends once: a driver's late end for a turn the runtime already ended (a cancel, a restart) is not recorded again.
      const fresh = (drafts as AgentEventDraft[]).filter(
        (draft) => !(isTurnEnd(draft?.type) && memory.book.endedTurns.has((draft as { turnId?: string }).turnId ?? '')),
      );
      const candidates = this.stamp(memory, fresh);
      const stamped = candidates.map((candidate, index) => {
        const parsed = agentEventSchema.safeParse(candidate);
        if (parsed.success && parsed.data.sessionId === sessionId) return parsed.data;
        const reason = parsed.success
          ? `sessionId: belongs to another session (${parsed.data.sessionId})`
          : issuesText(parsed.error.issues);
        throw new Error(`Event ${index} (${String(candidate.type)}) rejected: ${reason}`);
      });
      await this.commit(sessionId, memory, stamped, batchId);
      return memory.lastSeq;
    });
  }

  /** A client's batch: refused whole when it holds an event that only the runtime writes. */
  async appendFromClient(sessionId: string, drafts: readonly { type: string }[], batchId?: string): Promise<number> {
    const refused = drafts.find((draft) => !isClientWritable(draft.type));
    if (refused) throw new Error(`Only the runtime records ${refused.type} events.`);
    return this.append(sessionId, drafts, batchId);
  }

  /**
   * Hands out, atomically, the log so far, its last seq and every later event: with snapshots, the last turns of
   * the snapshot (and every turn the log after it touches) and that log; without, the whole log.
   */
  subscribe(sessionId: string, listener: EventListener): Promise<Subscription> {
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      const window = await this.openWindow(sessionId, memory.lastSeq);
      const durable = window?.tail ?? (await this.dependencies.store.read(sessionId, 0));
      this.snapshots?.noted(sessionId, durable.length);
      memory.listeners.add(listener);
      return {
        snapshot: [...durable, ...memory.openWork.transientTail()],
        snapshotSeq: memory.lastSeq,
        ...(window ? { state: window.state } : {}),
        unsubscribe: () => memory.listeners.delete(listener),
      };
    });
  }

  private async openWindow(
    sessionId: string,
    lastSeq: number,
  ): Promise<{ state: SessionSnapshot; tail: AgentEvent[] } | undefined> {
    const keeper = this.snapshots;
    const at = await keeper?.withTail(sessionId, lastSeq);
    if (!keeper || !at) return undefined;
    const { head } = at;
    const first = Math.min(
      Math.max(0, head.turnCount - (this.dependencies.snapshots?.windowTurns ?? WINDOW_TURNS)),
      ...at.touched.map((row) => row.position),
    );
    const rows = await keeper.turnRows(sessionId, lastSeq, () =>
      this.dependencies.store.snapshots!.readTurns(sessionId, first, head.turnCount),
    );
    const state = rows && takeSnapshot(stateOfRows(head, rows));
    return state && { state, tail: at.tail };
  }

  /** The turns before position `before`, up to `limit` of them, as they are at the log's last seq. */
  turnsBefore(sessionId: string, before: number, limit: number): Promise<TurnPage> {
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      const from = Math.max(0, before - limit);
      const at = await this.snapshots?.withTail(sessionId, memory.lastSeq);
      const rows =
        at &&
        (await this.snapshots!.turnRows(sessionId, memory.lastSeq, () =>
          this.dependencies.store.snapshots!.readTurns(sessionId, from, before),
        ));
      if (!at || !rows) return { before, olderTurns: before, turns: [], lastSeq: memory.lastSeq };
      const state = reduceEvents(stateOfRows(at.head, rows), at.tail);
      const turns = sliceTurns(
        state,
        rows.map((row) => row.turnId),
      );
      return { before, olderTurns: from, turns, lastSeq: state.lastSeq };
    });
  }

  read(sessionId: string, afterSeq: number, limit?: number): Promise<AgentEvent[]> {
    return this.dependencies.store.read(sessionId, afterSeq, limit);
  }

  listSessions(): Promise<SessionRecord[]> {
    return this.dependencies.store.listSessions();
  }

  /** Deletes a session's log; refused while one of its turns is still open. */
  deleteSession(sessionId: string): Promise<void> {
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      if (memory.openWork.openTurns.size > 0)
        throw new Error('A reply is still running in this conversation; stop it before deleting.');
      await this.dependencies.store.deleteSession(sessionId);
      this.sessions.delete(sessionId);
      this.snapshots?.forget(sessionId);
      this.targetArtifacts.forget(sessionId);
    });
  }

  /** Records fact notifications (`notify/*`) the runtime raises: a budget reached, a job finished, a security warning. */
  recordNotifications(sessionId: string, drafts: AgentEventDraft[]): Promise<void> {
    if (drafts.some((draft) => !draft.type.startsWith('notify/')))
      throw new Error('recordNotifications records notify/* events only.');
    return this.lock.run(sessionId, () => this.commitDrafts(sessionId, drafts));
  }

  /** Runs a tool call at most once per toolCallId, however often it is asked for. */
  executeTool(request: ToolExecutionRequest): Promise<ToolExecutionResult> {
    return this.toolExecution.execute(request);
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

  /** A cancel for an open turn goes to the panel that drives it; a turn nobody drives is stopped here. */
  private async stopTurn(sessionId: string, turnId: string, commandId: string): Promise<void> {
    const listener = this.owners.listenerFor(turnId);
    // A turn whose driver is gone is stopped here, so a cancel never waits on nobody.
    if (listener) listener({ turnId, commandId });
    else await this.endOpenTurn(sessionId, await this.load(sessionId), turnId, 'Stopped by the user.', commandId);
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
      await this.lock.run(sessionId, async () => {
        const memory = await this.load(sessionId);
        for (const turnId of turns) {
          if (memory.openWork.openTurns.has(turnId)) await this.endOpenTurn(sessionId, memory, turnId, reason);
        }
      });
    }
  }

  /** Ends a turn nobody drives, with its unfinished items: aborted when a cancel command stopped it, else interrupted. */
  private async endOpenTurn(
    sessionId: string,
    memory: SessionMemory,
    turnId: string,
    reason: string,
    commandId?: string,
  ): Promise<void> {
    const time = this.dependencies.now();
    const end: AgentEventDraft = commandId
      ? { type: 'turn/aborted', sessionId, turnId, commandId, time, data: { reason } }
      : { type: 'turn/interrupted', sessionId, turnId, time, data: { reason } };
    await this.commitDrafts(sessionId, [...this.interruptedItems(sessionId, memory, turnId, time, reason), end]);
  }

  private interruptedItems(
    sessionId: string,
    memory: SessionMemory,
    turnId: string,
    time: number,
    reason: string,
  ): AgentEventDraft[] {
    return memory.openWork.itemsOfTurn(turnId).map((item) => ({
      type: item.kind === 'assistant' ? 'assistant/interrupted' : 'reasoning/interrupted',
      sessionId,
      turnId,
      stepId: item.stepId,
      attemptId: item.attemptId,
      itemId: item.itemId,
      time,
      data: { text: item.text, reason },
    }));
  }

  private async commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void> {
    const memory = await this.load(sessionId);
    await this.commit(sessionId, memory, this.stamp(memory, drafts));
  }

  private stamp(memory: SessionMemory, drafts: readonly AgentEventDraft[], afterSeq = memory.lastSeq): AgentEvent[] {
    let seq = afterSeq;
    return drafts.map((draft) => {
      const durable = isKnownType(draft?.type) && isDurableType(draft.type);
      if (durable) seq += 1;
      return { ...draft, schemaVersion: AGENT_EVENT_SCHEMA_VERSION, seq, durable } as AgentEvent;
    });
  }

  /** Persists the durable events in one transaction, then advances the counter and broadcasts. */
  private async commit(
    sessionId: string,
    memory: SessionMemory,
    proposed: AgentEvent[],
    batchId?: string,
  ): Promise<void> {
    // Requests and commands of a turn that ends here are settled in the same transaction, so none is left answerable.
    const followUps = memory.book.followUps(sessionId, proposed, this.dependencies.now(), (toolCallId) =>
      this.toolExecution.isRunning(sessionId, toolCallId),
    );
    const lastProposed = proposed.findLast((event) => event.durable)?.seq ?? memory.lastSeq;
    const events = followUps.length > 0 ? [...proposed, ...this.stamp(memory, followUps, lastProposed)] : proposed;
    const durable = events.filter((event) => event.durable);
    if (durable.length > 0) await this.dependencies.store.append(sessionId, durable, batchId);
    if (durable.length > 0) this.snapshots?.noted(sessionId, durable.length);
    if (batchId !== undefined) memory.lastBatchId = batchId;
    for (const event of events) {
      if (event.durable) memory.lastSeq = event.seq;
      memory.openWork.observe(event);
      observeLedgers(memory, event);
      memory.viewArtifacts.observe(event);
      for (const listener of memory.listeners) {
        // A listener that throws (a port that went away) must not stop the counter or the other listeners.
        try {
          listener(event);
        } catch {
          memory.listeners.delete(listener);
        }
      }
      // A cancel the store refused leaves the job to end by itself, as the host bounds every run.
      if (event.type === 'turn/aborted') void this.jobs.cancelTurnJobs(sessionId, event.turnId).catch(() => undefined);
      this.dependencies.onRecorded?.(event);
    }
  }

  /** One load per session even when two callers ask at once (jobs read their ledger outside the lock). */
  private load(sessionId: string): Promise<SessionMemory> {
    const known = this.sessions.get(sessionId);
    if (known) return Promise.resolve(known);
    const pending = this.loading.get(sessionId) ?? this.loadFromStore(sessionId);
    this.loading.set(sessionId, pending);
    void pending.finally(() => this.loading.delete(sessionId)).catch(() => undefined);
    return pending;
  }

  /** From the session's snapshot and the log after it when snapshots are kept: never the whole log then. */
  private async loadFromStore(sessionId: string): Promise<SessionMemory> {
    const lastSeq = await this.dependencies.store.lastSeq(sessionId);
    const at = await this.snapshots?.withTail(sessionId, lastSeq);
    const ledgers = restoredLedgers(at?.head);
    const { book } = ledgers;
    const memory: SessionMemory = {
      lastSeq,
      lastBatchId: await this.dependencies.store.lastBatchId(sessionId),
      openWork: new OpenWork(at ? [...book.startedTurns].filter((turnId) => !book.endedTurns.has(turnId)) : []),
      ...ledgers,
      viewArtifacts: at ? ViewArtifactLedger.restored(at.head.state.viewArtifacts) : new ViewArtifactLedger(),
      listeners: new Set(),
    };
    for (const event of at?.tail ?? (await this.dependencies.store.read(sessionId, 0))) {
      memory.openWork.observe(event);
      observeLedgers(memory, event);
      memory.viewArtifacts.observe(event);
    }
    this.sessions.set(sessionId, memory);
    // Jobs the log says run, loaded by a runtime that did not start them: orphaned unless a host still has them.
    if (memory.jobs.open().length > 0) void this.jobs.reconcile(sessionId).catch(() => undefined);
    return memory;
  }

  /** Turns still open in the log whose driver is gone (after a restart) are recorded as interrupted. */
  async interruptOrphanedTurns(sessionId: string, reason: string): Promise<void> {
    await this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      for (const turnId of [...memory.openWork.openTurns]) {
        if (!this.owners.isOwned(turnId)) await this.endOpenTurn(sessionId, memory, turnId, reason);
      }
    });
  }
}

const knownTypes = new Set<string>(agentEventSchema.options.map((option) => option.shape.type.value));

function isKnownType(type: string | undefined): type is AgentEventType {
  return type !== undefined && knownTypes.has(type);
}

function isTurnEnd(type: string | undefined): boolean {
  return type === 'turn/completed' || type === 'turn/aborted' || type === 'turn/interrupted';
}
