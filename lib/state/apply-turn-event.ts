import type { AgentEventOf } from '../protocol/agent-event';
import { settleItem } from './apply-item-event';
import { addStartedTurn } from './branch-tree';
import type { EventAppliers } from './event-appliers';
import { updateTurn } from './turn-entries';
import type { WorkingCopy } from './working-copy';

type TurnEndType = 'turn/completed' | 'turn/aborted' | 'turn/interrupted';

function startTurn(copy: WorkingCopy, event: AgentEventOf<'turn/started'>): void {
  if (copy.state.turns[event.turnId]) return;
  copy.table('turns')[event.turnId] = {
    turnId: event.turnId,
    userItemId: event.data.userItemId,
    userText: event.data.text,
    status: 'running',
    startedAt: event.time,
    ...(event.data.retryOf ? { retryOf: event.data.retryOf } : {}),
    ...(event.data.retriesToolCall ? { retriesToolCall: event.data.retriesToolCall } : {}),
    ...(event.data.retriesStep ? { retriesStep: event.data.retriesStep } : {}),
    ...(event.data.attachments?.length ? { attachments: event.data.attachments } : {}),
    ...(event.data.appContexts?.length ? { appContextIds: event.data.appContexts } : {}),
    entries: [],
    errors: [],
  };
  copy.turnOrder().push(event.turnId);
  addStartedTurn(copy.branches(), event.turnId, event.data.parentTurnId, event.data.answerOf);
}

function endTurn(copy: WorkingCopy, event: AgentEventOf<TurnEndType>): void {
  const turn = copy.state.turns[event.turnId];
  if (!turn || (turn.status !== 'running' && turn.status !== 'paused')) return;
  const status =
    event.type === 'turn/completed' ? 'completed' : event.type === 'turn/aborted' ? 'aborted' : 'interrupted';
  copy.table('turns')[event.turnId] = {
    ...turn,
    status,
    endedAt: event.time,
    reason: event.data.reason,
    retry: undefined,
  };
  for (const entry of turn.entries) {
    const streaming = entry.kind === 'item' ? copy.state.streaming[entry.key] : undefined;
    if (streaming) settleItem(copy, { ...streaming, status: 'interrupted', reason: event.data.reason });
  }
  dropUnrequestedToolCalls(copy, event.turnId);
}

/** Argument previews of calls that were never requested exist only in transient events: a replay of the log never shows them. */
function dropUnrequestedToolCalls(copy: WorkingCopy, turnId: string): void {
  const turn = copy.state.turns[turnId];
  const unrequested = turn.entries.filter(
    (entry) => entry.kind === 'tool' && copy.state.toolCalls[entry.toolCallId]?.status === 'streaming',
  );
  if (unrequested.length === 0) return;
  const toolCalls = copy.table('toolCalls');
  for (const entry of unrequested) if (entry.kind === 'tool') delete toolCalls[entry.toolCallId];
  updateTurn(copy, turnId, (current) => ({ entries: current.entries.filter((entry) => !unrequested.includes(entry)) }));
}

/** A turn's start and its one end; what ends with it unfinished (a streaming item, an argument preview) ends too. */
export const TURN_APPLIERS: EventAppliers<'turn/started' | TurnEndType> = {
  'turn/started': startTurn,
  'turn/completed': endTurn,
  'turn/aborted': endTurn,
  'turn/interrupted': endTurn,
};
