import type { AgentEvent, AgentEventDraft, TurnCommandKind } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { RuntimeBook } from '../protocol/stored-snapshot';

export type RequestStatus = 'pending' | 'allowed' | 'denied' | 'answered' | 'expired';
export type ExpiryCause = 'timeout' | 'turn-ended' | 'context-lost';

export interface RequestRecord {
  requestId: string;
  kind: 'ask' | 'approval';
  turnId: string;
  toolCallId?: string;
  argumentsHash?: string;
  targetId?: string;
  answerSchema?: JsonValue;
  expiresAt?: number;
  status: RequestStatus;
  cause?: ExpiryCause;
  answer?: JsonValue;
  scope?: 'once' | 'target-session';
}

export type CommandStateName = 'submitted' | 'accepted' | 'queued' | 'applied' | 'stale' | 'rejected' | 'cancelled';

export interface CommandRecord {
  commandId: string;
  kind: TurnCommandKind;
  turnId: string;
  state: CommandStateName;
  text?: string;
}

export type TurnEnding = { status: 'completed' | 'aborted' | 'interrupted'; commandId?: string };

const TURN_ENDED = 'The turn ended before this was answered.';
export const ENDED_WITHOUT_OUTCOME =
  'Outcome unknown: the turn ended before this call reported a result, so it may or may not have been applied.';

/**
 * What the runtime knows of one session's questions, approvals and commands, rebuilt from the log.
 * `live` marks requests asked during this runtime's life: only those can still be answered as asked;
 * an approval pending from before a restart has lost its context and must be asked again.
 */
export class RequestBook {
  readonly requests = new Map<string, RequestRecord>();
  readonly commands = new Map<string, CommandRecord>();
  readonly endedTurns = new Map<string, TurnEnding>();
  readonly startedTurns = new Set<string>();
  /** Turns paused and not resumed: still open, driven by nobody until the person resumes them. */
  readonly pausedTurns = new Set<string>();
  /** Calls recorded as started and not yet settled, by toolCallId: the turn each belongs to. */
  private readonly startedCalls = new Map<string, string>();
  /** Targets the user allowed for the rest of this session. */
  readonly grants = new Set<string>();
  private readonly live = new Set<string>();
  private readonly waiters = new Map<string, Set<() => void>>();

  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'turn/started':
        this.startedTurns.add(event.turnId);
        return;
      case 'turn/paused':
        this.pausedTurns.add(event.turnId);
        return;
      case 'turn/resumed':
        this.pausedTurns.delete(event.turnId);
        return;
      case 'turn/completed':
        this.pausedTurns.delete(event.turnId);
        this.endedTurns.set(event.turnId, { status: 'completed' });
        return;
      case 'turn/aborted':
        this.pausedTurns.delete(event.turnId);
        this.endedTurns.set(event.turnId, {
          status: 'aborted',
          ...(event.commandId ? { commandId: event.commandId } : {}),
        });
        return;
      case 'turn/interrupted':
        this.pausedTurns.delete(event.turnId);
        this.endedTurns.set(event.turnId, { status: 'interrupted' });
        return;
      case 'tool/started':
        this.startedCalls.set(event.toolCallId, event.turnId);
        return;
      case 'tool/completed':
      case 'tool/failed':
      case 'tool/unknown':
      case 'tool/denied':
        this.startedCalls.delete(event.toolCallId);
        return;
      case 'ask/requested':
        this.requests.set(event.requestId, {
          requestId: event.requestId,
          kind: 'ask',
          turnId: event.turnId,
          ...(event.toolCallId ? { toolCallId: event.toolCallId } : {}),
          answerSchema: event.data.answerSchema,
          ...(event.data.expiresAt !== undefined ? { expiresAt: event.data.expiresAt } : {}),
          status: 'pending',
        });
        return;
      case 'approval/requested':
        this.requests.set(event.requestId, {
          requestId: event.requestId,
          kind: 'approval',
          turnId: event.turnId,
          toolCallId: event.toolCallId,
          argumentsHash: event.data.argumentsHash,
          expiresAt: event.data.expiresAt,
          ...(event.data.targetId ? { targetId: event.data.targetId } : {}),
          status: 'pending',
        });
        return;
      case 'ask/answered':
        this.settle(event.requestId, { status: 'answered', answer: event.data.answer });
        return;
      case 'approval/decided': {
        const request = this.settle(event.requestId, {
          status: event.data.decision === 'allow' ? 'allowed' : 'denied',
          ...(event.data.scope ? { scope: event.data.scope } : {}),
        });
        if (request?.status === 'allowed' && event.data.scope === 'target-session' && request.targetId)
          this.grants.add(request.targetId);
        return;
      }
      case 'ask/expired':
      case 'approval/expired':
        this.settle(event.requestId, { status: 'expired', cause: event.data.cause ?? 'timeout' });
        return;
      case 'command/state': {
        const known = this.commands.get(event.commandId);
        this.commands.set(event.commandId, {
          commandId: event.commandId,
          kind: event.data.kind,
          turnId: event.turnId,
          state: event.data.state,
          text: event.data.text ?? known?.text,
        });
        return;
      }
      default:
    }
  }

  private settle(requestId: string, change: Partial<RequestRecord>): RequestRecord | undefined {
    const request = this.requests.get(requestId);
    if (!request || request.status !== 'pending') return undefined;
    Object.assign(request, change);
    this.live.delete(requestId);
    for (const wake of this.waiters.get(requestId) ?? []) wake();
    this.waiters.delete(requestId);
    return request;
  }

  /** What a snapshot keeps of it: everything but which requests are live and who waits, which belong to this runtime. */
  stored(): Omit<RuntimeBook, 'jobs' | 'targets' | 'rewinds'> {
    return structuredClone({
      requests: [...this.requests.values()],
      commands: [...this.commands.values()],
      endedTurns: [...this.endedTurns],
      startedTurns: [...this.startedTurns],
      pausedTurns: [...this.pausedTurns],
      startedCalls: [...this.startedCalls],
      grants: [...this.grants],
    });
  }

  /** The book as a snapshot stored it, to observe the events after it. */
  static restored(book: Omit<RuntimeBook, 'jobs' | 'targets'>): RequestBook {
    const restored = new RequestBook();
    const copy = structuredClone(book);
    for (const request of copy.requests) restored.requests.set(request.requestId, request);
    for (const command of copy.commands) restored.commands.set(command.commandId, command);
    for (const [turnId, ending] of copy.endedTurns) restored.endedTurns.set(turnId, ending);
    for (const turnId of copy.startedTurns) restored.startedTurns.add(turnId);
    for (const turnId of copy.pausedTurns ?? []) restored.pausedTurns.add(turnId);
    for (const [toolCallId, turnId] of copy.startedCalls) restored.startedCalls.set(toolCallId, turnId);
    for (const targetId of copy.grants) restored.grants.add(targetId);
    return restored;
  }

  markLive(requestId: string): void {
    this.live.add(requestId);
  }

  isLive(requestId: string): boolean {
    return this.live.has(requestId);
  }

  isTurnOpen(turnId: string): boolean {
    return this.startedTurns.has(turnId) && !this.endedTurns.has(turnId);
  }

  isTurnPaused(turnId: string): boolean {
    return this.pausedTurns.has(turnId);
  }

  latestFor(toolCallId: string): RequestRecord | undefined {
    let latest: RequestRecord | undefined;
    for (const request of this.requests.values()) if (request.toolCallId === toolCallId) latest = request;
    return latest;
  }

  /** Resolves when the request is settled, or after `timeoutMs`, whichever comes first. */
  waitFor(requestId: string, timeoutMs: number, signal?: { aborted: boolean }): Promise<void> {
    const request = this.requests.get(requestId);
    if (!request || request.status !== 'pending' || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.get(requestId)?.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, timeoutMs));
      const set = this.waiters.get(requestId) ?? new Set();
      set.add(wake);
      this.waiters.set(requestId, set);
    });
  }

  /**
   * What must be recorded when turns end in `events`: open requests expire, queued steers go stale, cancels are
   * settled, and a call that started and has no outcome is recorded as unknown, so that no card stays running,
   * unless `isRunning` says it is still running here (it then records its own outcome).
   */
  followUps(
    sessionId: string,
    events: readonly AgentEvent[],
    time: number,
    isRunning: (toolCallId: string) => boolean = () => false,
  ): AgentEventDraft[] {
    const drafts: AgentEventDraft[] = [];
    for (const event of events) {
      if (event.type !== 'turn/completed' && event.type !== 'turn/aborted' && event.type !== 'turn/interrupted')
        continue;
      const { turnId } = event;
      for (const request of this.requests.values()) {
        if (request.turnId !== turnId || request.status !== 'pending') continue;
        drafts.push(...expiryDrafts(sessionId, request, time, 'turn-ended', TURN_ENDED));
      }
      for (const command of this.commands.values()) {
        if (command.turnId !== turnId) continue;
        if ((command.kind === 'steer' || command.kind === 'pause') && command.state === 'queued')
          drafts.push(commandDraft(sessionId, command, time, 'stale'));
        if (command.kind === 'cancel' && command.state === 'accepted')
          drafts.push(
            commandDraft(
              sessionId,
              command,
              time,
              event.type === 'turn/aborted' && event.commandId === command.commandId ? 'applied' : 'stale',
            ),
          );
      }
      drafts.push(...this.unsettledCallDrafts(sessionId, turnId, time, drafts, isRunning));
    }
    return drafts;
  }

  private unsettledCallDrafts(
    sessionId: string,
    turnId: string,
    time: number,
    settling: readonly AgentEventDraft[],
    isRunning: (toolCallId: string) => boolean,
  ): AgentEventDraft[] {
    const settled = new Set(settling.flatMap((draft) => (isToolOutcome(draft) ? [draft.toolCallId] : [])));
    return [...this.startedCalls]
      .filter(([toolCallId, callTurnId]) => callTurnId === turnId && !settled.has(toolCallId) && !isRunning(toolCallId))
      .map(([toolCallId]) => ({
        type: 'tool/unknown',
        sessionId,
        turnId,
        toolCallId,
        time,
        data: { reason: ENDED_WITHOUT_OUTCOME },
      }));
  }
}

function isToolOutcome(
  draft: AgentEventDraft,
): draft is Extract<AgentEventDraft, { type: 'tool/completed' | 'tool/failed' | 'tool/unknown' | 'tool/denied' }> {
  return (
    draft.type === 'tool/completed' ||
    draft.type === 'tool/failed' ||
    draft.type === 'tool/unknown' ||
    draft.type === 'tool/denied'
  );
}

export function commandDraft(
  sessionId: string,
  command: Pick<CommandRecord, 'commandId' | 'kind' | 'turnId' | 'text'>,
  time: number,
  state: CommandStateName,
): AgentEventDraft {
  return {
    type: 'command/state',
    sessionId,
    commandId: command.commandId,
    turnId: command.turnId,
    time,
    data: { kind: command.kind, state, ...(command.text !== undefined ? { text: command.text } : {}) },
  };
}

/** The events that close a request that can no longer be answered; an approval's call is recorded as denied unless it is asked again. */
export function expiryDrafts(
  sessionId: string,
  request: RequestRecord,
  time: number,
  cause: ExpiryCause,
  reason: string,
): AgentEventDraft[] {
  const { requestId, turnId } = request;
  if (request.kind === 'ask') {
    const expired: AgentEventDraft = {
      type: 'ask/expired',
      sessionId,
      turnId,
      requestId,
      time,
      data: { reason, cause },
    };
    if (!request.toolCallId) return [expired];
    const error = `Not answered: the question expired (${reason}) Do not guess the answer.`;
    return [
      expired,
      {
        type: 'tool/failed',
        sessionId,
        turnId,
        toolCallId: request.toolCallId,
        time,
        data: { error, output: { ok: false, error }, durationMs: 0 },
      },
    ];
  }
  const toolCallId = request.toolCallId ?? requestId;
  const expired: AgentEventDraft = {
    type: 'approval/expired',
    sessionId,
    turnId,
    requestId,
    toolCallId,
    time,
    data: { reason, cause },
  };
  if (cause === 'context-lost') return [expired];
  return [
    expired,
    deniedDraft(sessionId, turnId, toolCallId, time, `Not run: the approval request expired (${reason})`),
  ];
}

/** What the model is told about a call that was not run. */
export function deniedOutput(reason: string): JsonValue {
  return { ok: false, denied: true, error: reason };
}

export function deniedDraft(
  sessionId: string,
  turnId: string,
  toolCallId: string,
  time: number,
  reason: string,
): AgentEventDraft {
  return { type: 'tool/denied', sessionId, turnId, toolCallId, time, data: { reason, output: deniedOutput(reason) } };
}
