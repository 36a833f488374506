import type { AgentEvent, AgentEventOf } from '../protocol/agent-event';

/** How a turn began: the user's message, or one of the verbs that start a turn without a new message. */
export type TimelineTurnStart = 'message' | 'retry-message' | 'regenerate' | 'retry-call' | 'retry-step';

/** One turn of the run timeline, the heading its rows are grouped under: what began it, how it ended, its totals. */
export interface TimelineTurn {
  turnId: string;
  /** Its place among the conversation's turns, in the order they started (every branch counts). */
  number: number;
  start: TimelineTurnStart;
  title: string;
  time: number;
  /** Until its end event; absent while it runs or waits paused. */
  durationMs?: number;
  /** `completed`, or how it stopped otherwise (`stopped`, `interrupted`, `paused`, a cap), or `running`. */
  status: string;
  requests: number;
  toolCalls: number;
  /** The model's tokens over the turn's requests; a figure no request reported stays absent. */
  inputTokens?: number;
  outputTokens?: number;
}

const TITLE_CHARACTERS = 80;

/** The turns of a conversation (or the one asked for), read from the log alone, in the order they started. */
export function timelineTurns(events: readonly AgentEvent[], turnId?: string): TimelineTurn[] {
  const turns = new Map<string, TimelineTurn>();
  const callsOf = new Map<string, Set<string>>();
  const toolNames = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'tool/requested') toolNames.set(event.toolCallId, event.data.toolName);
    if (event.type === 'turn/started') {
      turns.set(event.turnId, started(event, turns.size + 1, toolNames));
      continue;
    }
    const turn = 'turnId' in event && event.turnId !== undefined ? turns.get(event.turnId) : undefined;
    if (!turn) continue;
    const calls = callsOf.get(turn.turnId) ?? new Set<string>();
    callsOf.set(turn.turnId, calls);
    count(turn, calls, event);
  }
  const all = [...turns.values()].map((turn) => ({ ...turn, toolCalls: callsOf.get(turn.turnId)?.size ?? 0 }));
  return turnId === undefined ? all : all.filter((turn) => turn.turnId === turnId);
}

function started(
  event: AgentEventOf<'turn/started'>,
  number: number,
  toolNames: ReadonlyMap<string, string>,
): TimelineTurn {
  const { start, title } = beginning(event, toolNames);
  return { turnId: event.turnId, number, start, title, time: event.time, status: 'running', requests: 0, toolCalls: 0 };
}

function beginning(
  event: AgentEventOf<'turn/started'>,
  toolNames: ReadonlyMap<string, string>,
): { start: TimelineTurnStart; title: string } {
  const { text, retriesStep, retriesToolCall, answerOf, retryOf, attachments } = event.data;
  if (retriesStep) return { start: 'retry-step', title: 'Retry step' };
  if (retriesToolCall)
    return { start: 'retry-call', title: `Retry of ${toolNames.get(retriesToolCall) ?? 'a tool call'}` };
  const message = shortened(text) || (attachments?.length ? `${attachments.length} attached file(s)` : '(no text)');
  if (answerOf) return { start: 'regenerate', title: `Regenerate: ${message}` };
  if (retryOf) return { start: 'retry-message', title: `Retry message: ${message}` };
  return { start: 'message', title: message };
}

function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARACTERS ? `${line.slice(0, TITLE_CHARACTERS - 1)}…` : line;
}

function count(turn: TimelineTurn, calls: Set<string>, event: AgentEvent): void {
  switch (event.type) {
    case 'step/started':
      turn.requests += 1;
      return;
    case 'step/completed':
      if (event.data.usage?.inputTokens !== undefined)
        turn.inputTokens = (turn.inputTokens ?? 0) + event.data.usage.inputTokens;
      if (event.data.usage?.outputTokens !== undefined)
        turn.outputTokens = (turn.outputTokens ?? 0) + event.data.usage.outputTokens;
      return;
    case 'tool/requested':
      calls.add(event.toolCallId);
      return;
    case 'tool/retried':
      // A retry's attempt is requested under its own id too: each call counts once.
      calls.add(event.attemptId);
      return;
    case 'turn/completed':
      return ended(turn, event.time, event.data.reason === 'stop' ? 'completed' : `ended (${event.data.reason})`);
    case 'turn/aborted':
      return ended(turn, event.time, 'stopped');
    case 'turn/interrupted':
      return ended(turn, event.time, 'interrupted');
    case 'turn/paused':
      turn.status = 'paused';
      return;
    case 'turn/resumed':
      turn.status = 'running';
      return;
    default:
  }
}

function ended(turn: TimelineTurn, time: number, status: string): void {
  turn.status = status;
  turn.durationMs = Math.max(0, time - turn.time);
}
