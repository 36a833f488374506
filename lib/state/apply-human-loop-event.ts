import type { AgentEventOf } from '../protocol/agent-event';
import type { RequestState } from './client-state';
import type { EventAppliers } from './event-appliers';
import { isTurnOpen, placeDurableEntry, updateTurn } from './turn-entries';
import type { WorkingCopy } from './working-copy';

type SettlingType = 'ask/answered' | 'ask/expired' | 'approval/decided' | 'approval/expired';

/** A request answered, decided or expired is never brought back by a later request with the same id. */
function isSettled(copy: WorkingCopy, requestId: string): boolean {
  const request = copy.state.requests[requestId];
  return request !== undefined && request.status !== 'pending';
}

function addAsk(copy: WorkingCopy, event: AgentEventOf<'ask/requested'>): void {
  if (isSettled(copy, event.requestId)) return;
  copy.table('requests')[event.requestId] = {
    requestId: event.requestId,
    turnId: event.turnId,
    kind: 'ask',
    ...(event.toolCallId ? { toolCallId: event.toolCallId } : {}),
    status: 'pending',
    summary: event.data.question,
    answerSchema: event.data.answerSchema,
    ...(event.data.expiresAt ? { expiresAt: event.data.expiresAt } : {}),
  };
}

function addApproval(copy: WorkingCopy, event: AgentEventOf<'approval/requested'>): void {
  if (isSettled(copy, event.requestId)) return;
  copy.table('requests')[event.requestId] = {
    requestId: event.requestId,
    turnId: event.turnId,
    kind: 'approval',
    toolCallId: event.toolCallId,
    status: 'pending',
    summary: event.data.summary,
    expiresAt: event.data.expiresAt,
    ...(event.data.targetId ? { targetId: event.data.targetId } : {}),
    ...(event.data.siteOrigin ? { siteOrigin: event.data.siteOrigin } : {}),
    ...(event.data.images ? { images: event.data.images } : {}),
  };
}

function settleRequest(copy: WorkingCopy, event: AgentEventOf<SettlingType>): void {
  const request = copy.state.requests[event.requestId];
  if (!request || request.status !== 'pending') return;
  copy.table('requests')[event.requestId] = { ...request, ...settledRequest(event) };
}

function settledRequest(event: AgentEventOf<SettlingType>): Partial<RequestState> {
  switch (event.type) {
    case 'approval/decided':
      return {
        status: event.data.decision === 'allow' ? 'allowed' : 'denied',
        ...(event.data.scope ? { scope: event.data.scope } : {}),
      };
    case 'ask/answered':
      return { status: 'answered', answer: event.data.answer };
    default:
      return { status: 'expired', reason: event.data.reason, ...(event.data.cause ? { cause: event.data.cause } : {}) };
  }
}

/** A steer shows in its turn where it was submitted and moves to where it was applied; its state follows the runtime's word. */
function applyCommand(copy: WorkingCopy, event: AgentEventOf<'command/state'>): void {
  const known = copy.state.commands[event.commandId];
  const text = event.data.text ?? known?.text;
  copy.table('commands')[event.commandId] = {
    commandId: event.commandId,
    turnId: event.turnId,
    kind: event.data.kind,
    state: event.data.state,
    ...(text !== undefined ? { text } : {}),
    ...(known?.observation !== undefined ? { observation: known.observation } : {}),
  };
  if (event.data.kind === 'steer' && copy.state.turns[event.turnId] && (!known || event.data.state === 'applied'))
    placeDurableEntry(copy, event.turnId, { kind: 'command', commandId: event.commandId });
}

function pauseTurn(copy: WorkingCopy, event: AgentEventOf<'turn/paused'>): void {
  if (isTurnOpen(copy, event.turnId)) updateTurn(copy, event.turnId, () => ({ status: 'paused' }));
}

/** A resume goes where it happened in its turn, with the note and the observation the model was sent. */
function applyResume(copy: WorkingCopy, event: AgentEventOf<'turn/resumed'>): void {
  if (copy.state.turns[event.turnId]?.status !== 'paused') return;
  updateTurn(copy, event.turnId, () => ({ status: 'running' }));
  copy.table('commands')[event.commandId] = {
    commandId: event.commandId,
    turnId: event.turnId,
    kind: 'resume',
    state: 'applied',
    text: event.data.note,
    ...(event.data.observation !== undefined ? { observation: event.data.observation } : {}),
  };
  placeDurableEntry(copy, event.turnId, { kind: 'command', commandId: event.commandId });
}

/** The human loop: questions and approvals with their answers, and the commands (steer, cancel, pause, resume). */
export const HUMAN_LOOP_APPLIERS: EventAppliers<
  'ask/requested' | 'approval/requested' | SettlingType | 'command/state' | 'turn/paused' | 'turn/resumed'
> = {
  'ask/requested': addAsk,
  'approval/requested': addApproval,
  'ask/answered': settleRequest,
  'ask/expired': settleRequest,
  'approval/decided': settleRequest,
  'approval/expired': settleRequest,
  'command/state': applyCommand,
  'turn/paused': pauseTurn,
  'turn/resumed': applyResume,
};
