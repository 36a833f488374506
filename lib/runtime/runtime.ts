import {
  AGENT_EVENT_SCHEMA_VERSION,
  agentEventSchema,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
  type AgentEventType,
} from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { argumentsHash, type ApprovalRequirement } from '../tools/approval-policy';
import { ASK_USER_TOOL, askQuestion, checkAnswer } from '../tools/ask-user';
import type { ToolOutput } from '../tools/tool-router';
import type { EventStore, SessionRecord } from './event-store';
import { OpenWork } from './open-work';
import { commandDraft, deniedDraft, expiryDrafts, RequestBook, type CommandStateName, type RequestRecord } from './request-book';
import { SessionLock } from './session-lock';

export type EventListener = (event: AgentEvent) => void;

export interface RuntimeDependencies {
  store: EventStore;
  /** `callKey` names the call uniquely across sessions (model tool call ids repeat), so the stage can record it. */
  executeTool(toolName: string, input: JsonValue, callKey: string): Promise<ToolOutput>;
  /** Rebuilds the output of a call that was cut off by a restart, from what the stage recorded; undefined if it cannot. */
  recoverTool?(toolName: string, input: JsonValue, callKey: string, startedAt: number): Promise<ToolRecovery>;
  now(): number;
  newId(): string;
  /** Whether a call must wait for the user's approval; none needs it when absent. */
  approvalRequirement?(toolName: string, input: JsonValue): Promise<ApprovalRequirement>;
  /** How long an unanswered question stays answerable. */
  askExpiresAfterMs?(): Promise<number>;
  /** How long one `executeTool` request waits for an answer before telling the caller to ask again. */
  longPollMs?: number;
}

/** What a restarted runtime can learn about a call that has started but has no result. */
export type ToolRecovery = { kind: 'recovered'; output: ToolOutput } | { kind: 'never-reached' } | { kind: 'unknown' };

export interface ToolExecutionRequest {
  sessionId: string;
  turnId: string;
  stepId: string;
  toolCallId: string;
  toolName: string;
  input: JsonValue;
}

export type ToolExecutionResult =
  | { status: 'completed' | 'failed' | 'denied' | 'unknown'; output: JsonValue; replayed: boolean }
  /** The call waits for the user (an approval or a question): ask again to keep waiting. */
  | { status: 'waiting'; requestId: string; output: null; replayed: boolean };

export type CommandResult = { commandId: string; state: CommandStateName | 'unknown'; turnStatus?: string };

/** Notified when a cancel command targets a turn this owner drives. */
export type OwnerListener = (command: { turnId: string; commandId: string }) => void;

export interface Subscription {
  snapshot: AgentEvent[];
  snapshotSeq: number;
  unsubscribe(): void;
}

interface SessionMemory {
  lastSeq: number;
  lastBatchId: string | undefined;
  openWork: OpenWork;
  book: RequestBook;
  listeners: Set<EventListener>;
}

type GateVerdict = { kind: 'run' } | { kind: 'wait'; requestId: string; until: number } | { kind: 'done'; result: ToolExecutionResult };

const DEFAULT_ASK_EXPIRY_MS = 30 * 60_000;
const DEFAULT_LONG_POLL_MS = 20_000;
const CONTEXT_LOST = 'The extension restarted while this was waiting; it must be asked again.';

const UNKNOWN_OUTCOME =
  'Outcome unknown: the extension restarted while this call was running, so it may or may not have been applied. It was not run again. Call getParameters to see the current state.';

/** The single writer of every session's event log. */
export class Runtime {
  private readonly lock = new SessionLock();
  private readonly sessions = new Map<string, SessionMemory>();
  private readonly owners = new Map<string, Set<string>>();
  private readonly runningTools = new Map<string, Promise<ToolExecutionResult>>();
  private readonly ownerListeners = new Map<string, OwnerListener>();

  constructor(private readonly dependencies: RuntimeDependencies) {}

  /** Validates, stamps and records events a client proposes; rejects the whole batch on any invalid one. */
  append(sessionId: string, drafts: readonly unknown[], batchId?: string): Promise<number> {
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      if (batchId !== undefined && batchId === memory.lastBatchId) return memory.lastSeq;
      // A turn ends once: a driver's late end for a turn the runtime already ended (a cancel, a restart) is not recorded again.
      const fresh = (drafts as AgentEventDraft[]).filter((draft) => !(isTurnEnd(draft?.type) && memory.book.endedTurns.has((draft as { turnId?: string }).turnId ?? '')));
      const candidates = this.stamp(memory, fresh);
      const stamped = candidates.map((candidate, index) => {
        const parsed = agentEventSchema.safeParse(candidate);
        if (parsed.success && parsed.data.sessionId === sessionId) return parsed.data;
        const reason = parsed.success ? `sessionId: belongs to another session (${parsed.data.sessionId})` : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
        throw new Error(`Event ${index} (${String(candidate.type)}) rejected: ${reason}`);
      });
      await this.commit(sessionId, memory, stamped, batchId);
      return memory.lastSeq;
    });
  }

  /** Hands out, atomically, the log so far, its last seq and every later event. */
  subscribe(sessionId: string, listener: EventListener): Promise<Subscription> {
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      const durable = await this.dependencies.store.read(sessionId, 0);
      memory.listeners.add(listener);
      return {
        snapshot: [...durable, ...memory.openWork.transientTail()],
        snapshotSeq: memory.lastSeq,
        unsubscribe: () => memory.listeners.delete(listener),
      };
    });
  }

  read(sessionId: string, afterSeq: number): Promise<AgentEvent[]> {
    return this.dependencies.store.read(sessionId, afterSeq);
  }

  listSessions(): Promise<SessionRecord[]> {
    return this.dependencies.store.listSessions();
  }

  /** Deletes a session's log; refused while one of its turns is still open. */
  deleteSession(sessionId: string): Promise<void> {
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      if (memory.openWork.openTurns.size > 0) throw new Error('A reply is still running in this conversation; stop it before deleting.');
      await this.dependencies.store.deleteSession(sessionId);
      this.sessions.delete(sessionId);
    });
  }

  /** Runs a tool call at most once per toolCallId, however often it is asked for. */
  executeTool(request: ToolExecutionRequest): Promise<ToolExecutionResult> {
    const key = `${request.sessionId}\u0000${request.toolCallId}`;
    const running = this.runningTools.get(key);
    // A second ask while the call runs waits for its result instead of reading "started, no result" as unknown.
    if (running) return running.then((result) => ({ ...result, replayed: true }));
    const execution = this.executeOnce(request).finally(() => this.runningTools.delete(key));
    this.runningTools.set(key, execution);
    return execution;
  }

  private async executeOnce(request: ToolExecutionRequest): Promise<ToolExecutionResult> {
    if (request.toolName === ASK_USER_TOOL) return this.waitForUser(request, () => this.askStep(request));
    const requirement = (await this.dependencies.approvalRequirement?.(request.toolName, request.input)) ?? { required: false };
    if (requirement.required) {
      const hash = await argumentsHash(request.toolName, request.input);
      const verdict = await this.waitForUser(request, () => this.approvalStep(request, requirement, hash));
      if (verdict.status !== 'completed') return verdict;
    }
    return this.runOnce(request, requirement.targetId);
  }

  /** Runs one decision step; when it says to wait, waits for the answer (bounded) and decides once more. */
  private async waitForUser(request: ToolExecutionRequest, step: () => Promise<GateVerdict>): Promise<ToolExecutionResult> {
    let verdict = await this.lock.run(request.sessionId, step);
    if (verdict.kind === 'wait') {
      const memory = await this.load(request.sessionId);
      const longPoll = this.dependencies.longPollMs ?? DEFAULT_LONG_POLL_MS;
      await memory.book.waitFor(verdict.requestId, Math.min(longPoll, verdict.until - this.dependencies.now() + 1));
      verdict = await this.lock.run(request.sessionId, step);
    }
    if (verdict.kind === 'wait') return { status: 'waiting', requestId: verdict.requestId, output: null, replayed: false };
    if (verdict.kind === 'done') return verdict.result;
    return { status: 'completed', output: null, replayed: false };
  }

  /** Decides whether an approval-bound call may run now: allowed, denied, expired, or still waiting (asking if nobody was asked). */
  private async approvalStep(request: ToolExecutionRequest, requirement: Extract<ApprovalRequirement, { required: true }>, hash: string): Promise<GateVerdict> {
    const { sessionId, turnId, toolCallId } = request;
    const memory = await this.load(sessionId);
    const { book } = memory;
    const recorded = (await this.dependencies.store.readToolCall(sessionId, toolCallId)).filter((event) => event.type.startsWith('tool/'));
    if (recorded.some((event) => event.type !== 'tool/requested')) return { kind: 'run' };
    if (requirement.targetId && book.grants.has(requirement.targetId)) return { kind: 'run' };
    const now = this.dependencies.now();
    const latest = book.latestFor(toolCallId);
    if (latest?.status === 'allowed' && latest.argumentsHash === hash) return { kind: 'run' };
    if (latest?.status === 'denied') return this.denied(sessionId, memory, turnId, toolCallId, 'Not run: the user denied this call.');
    if (latest?.status === 'expired' && latest.cause !== 'context-lost') return this.denied(sessionId, memory, turnId, toolCallId, 'Not run: the approval request expired.');
    if (latest?.status === 'pending') {
      if (!book.isLive(latest.requestId)) {
        await this.commitDrafts(sessionId, expiryDrafts(sessionId, latest, now, 'context-lost', CONTEXT_LOST));
      } else if (now >= (latest.expiresAt ?? Infinity)) {
        await this.commitDrafts(sessionId, expiryDrafts(sessionId, latest, now, 'timeout', 'nobody answered in time.'));
        return this.deniedResult(toolCallId, 'Not run: the approval request expired.');
      } else {
        return { kind: 'wait', requestId: latest.requestId, until: latest.expiresAt ?? now + DEFAULT_LONG_POLL_MS };
      }
    }
    if (!book.isTurnOpen(turnId)) return this.denied(sessionId, memory, turnId, toolCallId, 'Not run: the turn has ended.');
    const requestId = this.dependencies.newId();
    const expiresAt = now + requirement.expiresAfterMs;
    await this.commitDrafts(sessionId, [
      ...this.requestedDraft(request, recorded, now, requirement.targetId),
      { type: 'approval/requested', sessionId, turnId, requestId, toolCallId, time: now, data: { argumentsHash: hash, summary: requirement.summary, expiresAt, toolName: request.toolName, ...(requirement.targetId ? { targetId: requirement.targetId } : {}) } },
    ]);
    book.markLive(requestId);
    return { kind: 'wait', requestId, until: expiresAt };
  }

  private async denied(sessionId: string, memory: SessionMemory, turnId: string, toolCallId: string, reason: string): Promise<GateVerdict> {
    const recorded = (await this.dependencies.store.readToolCall(sessionId, toolCallId)).find((event) => event.type === 'tool/denied');
    if (!recorded) await this.commit(sessionId, memory, this.stamp(memory, [deniedDraft(sessionId, turnId, toolCallId, this.dependencies.now(), reason)]));
    return this.deniedResult(toolCallId, recorded?.type === 'tool/denied' ? recorded.data.reason : reason);
  }

  private deniedResult(_toolCallId: string, reason: string): GateVerdict {
    return { kind: 'done', result: { status: 'denied', output: { ok: false, denied: true, error: reason }, replayed: false } };
  }

  private requestedDraft(request: ToolExecutionRequest, recorded: AgentEvent[], time: number, targetId?: string): AgentEventDraft[] {
    if (recorded.some((event) => event.type === 'tool/requested')) return [];
    const { sessionId, turnId, stepId, toolCallId, toolName, input } = request;
    return [{ type: 'tool/requested', sessionId, turnId, stepId, toolCallId, time, data: { toolName, input, ...(targetId ? { targetId } : {}) } }];
  }

  /** The askUser tool: asks once, waits for an answer checked against the question's schema, never fills one in. */
  private async askStep(request: ToolExecutionRequest): Promise<GateVerdict> {
    const { sessionId, turnId, toolCallId } = request;
    const memory = await this.load(sessionId);
    const recorded = (await this.dependencies.store.readToolCall(sessionId, toolCallId)).filter((event) => event.type.startsWith('tool/'));
    const outcome = recorded.find((event) => event.type === 'tool/completed' || event.type === 'tool/failed');
    if (outcome?.type === 'tool/completed') return { kind: 'done', result: { status: 'completed', output: outcome.data.output, replayed: true } };
    if (outcome?.type === 'tool/failed') return { kind: 'done', result: { status: 'failed', output: outcome.data.output, replayed: true } };
    const now = this.dependencies.now();
    const latest = memory.book.latestFor(toolCallId);
    if (latest?.status === 'answered') {
      const output = { ok: true, answer: latest.answer ?? null };
      await this.commitDrafts(sessionId, [{ type: 'tool/completed', sessionId, turnId, toolCallId, time: now, data: { output, durationMs: 0 } }]);
      return { kind: 'done', result: { status: 'completed', output, replayed: false } };
    }
    if (latest?.status === 'pending') {
      if (now < (latest.expiresAt ?? Infinity)) return { kind: 'wait', requestId: latest.requestId, until: latest.expiresAt ?? now + DEFAULT_LONG_POLL_MS };
      await this.commitDrafts(sessionId, expiryDrafts(sessionId, latest, now, 'timeout', 'nobody answered in time.'));
      return this.askSettled(sessionId, toolCallId);
    }
    if (latest) return this.askSettled(sessionId, toolCallId);
    const question = askQuestion(request.input);
    if (!question.ok) {
      const output = { ok: false, error: question.error };
      await this.commitDrafts(sessionId, [...this.requestedDraft(request, recorded, now), { type: 'tool/failed', sessionId, turnId, toolCallId, time: now, data: { error: question.error, output, durationMs: 0 } }]);
      return { kind: 'done', result: { status: 'failed', output, replayed: false } };
    }
    if (!memory.book.isTurnOpen(turnId)) return { kind: 'done', result: { status: 'failed', output: { ok: false, error: 'The turn has ended.' }, replayed: false } };
    const requestId = this.dependencies.newId();
    const expiresAt = now + ((await this.dependencies.askExpiresAfterMs?.()) ?? DEFAULT_ASK_EXPIRY_MS);
    await this.commitDrafts(sessionId, [
      ...this.requestedDraft(request, recorded, now),
      { type: 'tool/started', sessionId, turnId, toolCallId, time: now, data: {} },
      { type: 'ask/requested', sessionId, turnId, requestId, toolCallId, time: now, data: { question: question.question, answerSchema: question.answerSchema, expiresAt } },
    ]);
    return { kind: 'wait', requestId, until: expiresAt };
  }

  private async askSettled(sessionId: string, toolCallId: string): Promise<GateVerdict> {
    const outcome = (await this.dependencies.store.readToolCall(sessionId, toolCallId)).find((event) => event.type === 'tool/failed');
    const output = outcome?.type === 'tool/failed' ? outcome.data.output : { ok: false, error: 'Not answered.' };
    return { kind: 'done', result: { status: 'failed', output, replayed: true } };
  }

  /** Records the user's decision on an approval; only the first valid one counts, and only while the request can still be answered. */
  decideApproval(decision: { sessionId: string; turnId: string; toolCallId: string; requestId: string; decision: 'allow' | 'deny'; scope?: 'once' | 'target-session' }): Promise<{ accepted: boolean; status: string }> {
    const { sessionId, turnId, toolCallId, requestId } = decision;
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      const request = memory.book.requests.get(requestId);
      if (!request || request.kind !== 'approval' || request.turnId !== turnId || request.toolCallId !== toolCallId) throw new Error('No such approval request in this conversation.');
      const settled = await this.settleIfStale(sessionId, memory, request);
      if (settled) return { accepted: false, status: settled };
      const now = this.dependencies.now();
      await this.commitDrafts(sessionId, [
        { type: 'approval/decided', sessionId, turnId, requestId, toolCallId, time: now, data: { decision: decision.decision, scope: decision.scope ?? 'once' } },
        ...(decision.decision === 'deny' ? [deniedDraft(sessionId, turnId, toolCallId, now, 'Not run: the user denied this call.')] : []),
      ]);
      return { accepted: true, status: decision.decision === 'allow' ? 'allowed' : 'denied' };
    });
  }

  /** Records the user's answer to a question after checking it against the question's schema. */
  answerAsk(answer: { sessionId: string; turnId: string; requestId: string; answer: unknown }): Promise<{ accepted: boolean; status: string; error?: string }> {
    const { sessionId, turnId, requestId } = answer;
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      const request = memory.book.requests.get(requestId);
      if (!request || request.kind !== 'ask' || request.turnId !== turnId) throw new Error('No such question in this conversation.');
      const settled = await this.settleIfStale(sessionId, memory, request);
      if (settled) return { accepted: false, status: settled };
      const checked = checkAnswer(request.answerSchema ?? null, answer.answer);
      if (!checked.ok) return { accepted: false, status: 'pending', error: checked.error };
      await this.commitDrafts(sessionId, [{ type: 'ask/answered', sessionId, turnId, requestId, time: this.dependencies.now(), data: { answer: checked.value } }]);
      return { accepted: true, status: 'answered' };
    });
  }

  /** The state a request is already in when it can no longer take an answer (recording the expiry this discovers), or undefined if it can. */
  private async settleIfStale(sessionId: string, memory: SessionMemory, request: RequestRecord): Promise<string | undefined> {
    if (request.status !== 'pending') return request.status;
    const now = this.dependencies.now();
    let expiry: [ 'timeout' | 'turn-ended' | 'context-lost', string ] | undefined;
    if (!memory.book.isTurnOpen(request.turnId)) expiry = ['turn-ended', 'The turn has ended.'];
    else if (now >= (request.expiresAt ?? Infinity)) expiry = ['timeout', 'nobody answered in time.'];
    else if (request.kind === 'approval' && !memory.book.isLive(request.requestId)) expiry = ['context-lost', CONTEXT_LOST];
    if (!expiry) return undefined;
    await this.commitDrafts(sessionId, expiryDrafts(sessionId, request, now, expiry[0], expiry[1]));
    return 'expired';
  }

  /** Takes a steer or cancel command for one turn; a repeated command reports its recorded state and changes nothing. */
  submitCommand(command: { sessionId: string; turnId: string; commandId: string; kind: 'steer' | 'cancel'; text?: string }): Promise<CommandResult> {
    const { sessionId, turnId, commandId, kind } = command;
    return this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      const { book } = memory;
      const known = book.commands.get(commandId);
      if (known) return { commandId, state: known.state, ...this.turnStatus(book, known.turnId) };
      const time = this.dependencies.now();
      const record = { commandId, kind, turnId, ...(command.text !== undefined ? { text: command.text } : {}) };
      if (!book.startedTurns.has(turnId)) {
        await this.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'rejected')]);
        return { commandId, state: 'rejected' };
      }
      const ending = book.endedTurns.get(turnId);
      if (ending) {
        const state = kind === 'cancel' && ending.commandId === commandId ? 'applied' : 'stale';
        await this.commitDrafts(sessionId, [commandDraft(sessionId, record, time, state)]);
        return { commandId, state, turnStatus: ending.status };
      }
      if (kind === 'steer') {
        await this.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'queued')]);
        return { commandId, state: 'queued', turnStatus: 'running' };
      }
      await this.commitDrafts(sessionId, [commandDraft(sessionId, record, time, 'accepted')]);
      const owner = [...this.owners].find(([, turns]) => turns.has(turnId))?.[0];
      const listener = owner ? this.ownerListeners.get(owner) : undefined;
      if (listener) listener({ turnId, commandId });
      else await this.abortTurn(sessionId, memory, turnId, commandId);
      return { commandId, state: book.commands.get(commandId)?.state ?? 'accepted', ...this.turnStatus(book, turnId) };
    });
  }

  private turnStatus(book: RequestBook, turnId: string): { turnStatus?: string } {
    if (!book.startedTurns.has(turnId)) return {};
    return { turnStatus: book.endedTurns.get(turnId)?.status ?? 'running' };
  }

  /** The recorded fate of a command, read back by its id after a disconnect. */
  commandStatus(sessionId: string, commandId: string): Promise<CommandResult> {
    return this.lock.run(sessionId, async () => {
      const { book } = await this.load(sessionId);
      const known = book.commands.get(commandId);
      return known ? { commandId, state: known.state, ...this.turnStatus(book, known.turnId) } : { commandId, state: 'unknown' };
    });
  }

  /** At a safe point of a turn: hands over the steers queued for it and records them as applied. */
  takeSteers(sessionId: string, turnId: string): Promise<{ commandId: string; text: string }[]> {
    return this.lock.run(sessionId, async () => {
      const { book } = await this.load(sessionId);
      if (!book.isTurnOpen(turnId)) return [];
      const queued = [...book.commands.values()].filter((command) => command.turnId === turnId && command.kind === 'steer' && command.state === 'queued');
      if (queued.length === 0) return [];
      const time = this.dependencies.now();
      await this.commitDrafts(sessionId, queued.map((command) => commandDraft(sessionId, command, time, 'applied')));
      return queued.map((command) => ({ commandId: command.commandId, text: command.text ?? '' }));
    });
  }

  /** A turn whose driver is gone is stopped here, so a cancel never waits on nobody. */
  private async abortTurn(sessionId: string, memory: SessionMemory, turnId: string, commandId: string): Promise<void> {
    const time = this.dependencies.now();
    const reason = 'Stopped by the user.';
    await this.commitDrafts(sessionId, [...this.interruptedItems(sessionId, memory, turnId, time, reason), { type: 'turn/aborted', sessionId, turnId, commandId, time, data: { reason } }]);
  }

  registerOwner(ownerId: string, listener: OwnerListener): void {
    this.ownerListeners.set(ownerId, listener);
  }

  private async runOnce(request: ToolExecutionRequest, targetId?: string): Promise<ToolExecutionResult> {
    const { sessionId, turnId, toolCallId } = request;
    const previous = await this.lock.run(sessionId, async () => {
      // Approvals and asks carry the toolCallId too; only the call's own lifecycle tells whether it ran.
      const recorded = (await this.dependencies.store.readToolCall(sessionId, toolCallId)).filter((event) => event.type.startsWith('tool/'));
      if (recorded.some((event) => event.type !== 'tool/requested')) return this.recordedOutcome(sessionId, turnId, toolCallId, recorded);
      const started = this.dependencies.now();
      await this.commitDrafts(sessionId, [
        ...(recorded.length === 0
          ? [{ type: 'tool/requested', sessionId, turnId, stepId: request.stepId, toolCallId, time: started, data: { toolName: request.toolName, input: request.input, ...(targetId ? { targetId } : {}) } } as const]
          : []),
        { type: 'tool/started', sessionId, turnId, toolCallId, time: started, data: targetId ? { targetId } : {} },
      ]);
      return undefined;
    });
    if (previous) return previous;
    const startedAt = this.dependencies.now();
    const output = await this.dependencies.executeTool(request.toolName, request.input, `${sessionId}/${toolCallId}`).catch(
      (error: unknown): ToolOutput => ({ ok: false, error: `The tool failed: ${error instanceof Error ? error.message : String(error)}` }),
    );
    const durationMs = Math.max(0, this.dependencies.now() - startedAt);
    const finished = this.dependencies.now();
    await this.lock.run(sessionId, () =>
      this.commitDrafts(sessionId, [
        output.ok
          ? { type: 'tool/completed', sessionId, turnId, toolCallId, time: finished, data: { output, durationMs } }
          : { type: 'tool/failed', sessionId, turnId, toolCallId, time: finished, data: { error: String(output.error ?? 'failed'), output, durationMs } },
      ]),
    );
    return { status: output.ok ? 'completed' : 'failed', output, replayed: false };
  }

  /** The outcome of a call the log already knows; undefined when it provably never ran and may run now. */
  private async recordedOutcome(sessionId: string, turnId: string, toolCallId: string, recorded: AgentEvent[]): Promise<ToolExecutionResult | undefined> {
    for (const event of recorded) {
      if (event.type === 'tool/completed') return { status: 'completed', output: event.data.output, replayed: true };
      if (event.type === 'tool/failed') return { status: 'failed', output: event.data.output, replayed: true };
      if (event.type === 'tool/denied') return { status: 'denied', output: event.data.output, replayed: true };
    }
    const requested = recorded.find((event) => event.type === 'tool/requested');
    const alreadyUnknown = recorded.some((event) => event.type === 'tool/unknown');
    const started = recorded.find((event) => event.type === 'tool/started');
    const recovery =
      requested?.type === 'tool/requested' && started && !alreadyUnknown
        ? await this.dependencies.recoverTool?.(requested.data.toolName, requested.data.input, `${sessionId}/${toolCallId}`, started.time)
        : undefined;
    if (recovery?.kind === 'never-reached') return undefined;
    const recovered = recovery?.kind === 'recovered' ? recovery.output : undefined;
    if (recovered) {
      const time = this.dependencies.now();
      await this.commitDrafts(sessionId, [
        recovered.ok
          ? { type: 'tool/completed', sessionId, turnId, toolCallId, time, data: { output: recovered, durationMs: 0 } }
          : { type: 'tool/failed', sessionId, turnId, toolCallId, time, data: { error: String(recovered.error ?? 'failed'), output: recovered, durationMs: 0 } },
      ]);
      return { status: recovered.ok ? 'completed' : 'failed', output: recovered, replayed: true };
    }
    const output = { ok: false, error: UNKNOWN_OUTCOME };
    if (!alreadyUnknown) {
      await this.commitDrafts(sessionId, [{ type: 'tool/unknown', sessionId, turnId, toolCallId, time: this.dependencies.now(), data: { reason: UNKNOWN_OUTCOME } }]);
    }
    return { status: 'unknown', output, replayed: true };
  }

  /** A client announces that it drives a turn; when it goes away, the turn is recorded as interrupted. */
  claimTurn(ownerId: string, turnId: string): void {
    const turns = this.owners.get(ownerId) ?? new Set<string>();
    turns.add(turnId);
    this.owners.set(ownerId, turns);
  }

  releaseTurn(ownerId: string, turnId: string): void {
    this.owners.get(ownerId)?.delete(turnId);
  }

  async ownerGone(ownerId: string, sessionIds: Iterable<string>, reason: string): Promise<void> {
    const turns = this.owners.get(ownerId);
    this.owners.delete(ownerId);
    this.ownerListeners.delete(ownerId);
    if (!turns?.size) return;
    for (const sessionId of sessionIds) {
      await this.lock.run(sessionId, async () => {
        const memory = await this.load(sessionId);
        for (const turnId of turns) {
          if (memory.openWork.openTurns.has(turnId)) await this.interruptTurn(sessionId, memory, turnId, reason);
        }
      });
    }
  }

  private async interruptTurn(sessionId: string, memory: SessionMemory, turnId: string, reason: string): Promise<void> {
    const time = this.dependencies.now();
    const drafts = this.interruptedItems(sessionId, memory, turnId, time, reason);
    drafts.push({ type: 'turn/interrupted', sessionId, turnId, time, data: { reason } });
    await this.commitDrafts(sessionId, drafts);
  }

  private interruptedItems(sessionId: string, memory: SessionMemory, turnId: string, time: number, reason: string): AgentEventDraft[] {
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
  private async commit(sessionId: string, memory: SessionMemory, proposed: AgentEvent[], batchId?: string): Promise<void> {
    // Requests and commands of a turn that ends here are settled in the same transaction, so none is left answerable.
    const followUps = memory.book.followUps(sessionId, proposed, this.dependencies.now());
    const lastProposed = proposed.findLast((event) => event.durable)?.seq ?? memory.lastSeq;
    const events = followUps.length > 0 ? [...proposed, ...this.stamp(memory, followUps, lastProposed)] : proposed;
    const durable = events.filter((event) => event.durable);
    if (durable.length > 0) await this.dependencies.store.append(sessionId, durable, batchId);
    if (batchId !== undefined) memory.lastBatchId = batchId;
    for (const event of events) {
      if (event.durable) memory.lastSeq = event.seq;
      memory.openWork.observe(event);
      memory.book.observe(event);
      for (const listener of memory.listeners) {
        // A listener that throws (a port that went away) must not stop the counter or the other listeners.
        try {
          listener(event);
        } catch {
          memory.listeners.delete(listener);
        }
      }
    }
  }

  private async load(sessionId: string): Promise<SessionMemory> {
    const known = this.sessions.get(sessionId);
    if (known) return known;
    const memory: SessionMemory = { lastSeq: await this.dependencies.store.lastSeq(sessionId), lastBatchId: await this.dependencies.store.lastBatchId(sessionId), openWork: new OpenWork(), book: new RequestBook(), listeners: new Set() };
    for (const event of await this.dependencies.store.read(sessionId, 0)) {
      memory.openWork.observe(event);
      memory.book.observe(event);
    }
    this.sessions.set(sessionId, memory);
    return memory;
  }

  /** Turns still open in the log whose driver is gone (after a restart) are recorded as interrupted. */
  async interruptOrphanedTurns(sessionId: string, reason: string): Promise<void> {
    await this.lock.run(sessionId, async () => {
      const memory = await this.load(sessionId);
      const owned = new Set([...this.owners.values()].flatMap((turns) => [...turns]));
      for (const turnId of [...memory.openWork.openTurns]) {
        if (!owned.has(turnId)) await this.interruptTurn(sessionId, memory, turnId, reason);
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
