import type { AgentEvent, AgentEventOf } from '../protocol/agent-event';
import { itemKey, type ItemState, type ToolCallState, type TurnEntry, type TurnState } from './client-state';
import type { WorkingCopy } from './working-copy';

function updateTurn(copy: WorkingCopy, turnId: string, change: (turn: TurnState) => Partial<TurnState>): void {
  const turn = copy.state.turns[turnId];
  if (!turn) return;
  copy.table('turns')[turnId] = { ...turn, ...change(turn) };
}

function addEntry(copy: WorkingCopy, turnId: string, entry: TurnEntry): void {
  updateTurn(copy, turnId, (turn) => ({ entries: [...turn.entries, entry] }));
}

function isTurnOpen(copy: WorkingCopy, turnId: string): boolean {
  return copy.state.turns[turnId]?.status === 'running';
}

function endTurn(copy: WorkingCopy, event: AgentEventOf<'turn/completed' | 'turn/aborted' | 'turn/interrupted'>): void {
  const turn = copy.state.turns[event.turnId];
  if (!turn || turn.status !== 'running') return;
  const status = event.type === 'turn/completed' ? 'completed' : event.type === 'turn/aborted' ? 'aborted' : 'interrupted';
  copy.table('turns')[event.turnId] = { ...turn, status, endedAt: event.time, reason: event.data.reason, retry: undefined };
  const items = copy.table('items');
  for (const entry of turn.entries) {
    if (entry.kind === 'item' && items[entry.key]?.status === 'streaming') items[entry.key] = { ...items[entry.key], status: 'interrupted', reason: event.data.reason };
  }
}

type ItemEvent = AgentEventOf<'assistant/delta' | 'assistant/completed' | 'assistant/interrupted' | 'reasoning/delta' | 'reasoning/completed' | 'reasoning/interrupted'>;

function ensureItem(copy: WorkingCopy, event: ItemEvent): ItemState {
  const key = itemKey(event.itemId, event.attemptId);
  const existing = copy.state.items[key];
  if (existing) return existing;
  const item: ItemState = {
    key,
    itemId: event.itemId,
    attemptId: event.attemptId,
    turnId: event.turnId,
    stepId: event.stepId,
    kind: event.type.startsWith('assistant') ? 'assistant' : 'reasoning',
    text: '',
    status: 'streaming',
    deltaCount: 0,
  };
  copy.table('items')[key] = item;
  addEntry(copy, event.turnId, { kind: 'item', key });
  return item;
}

function applyItemDelta(copy: WorkingCopy, event: AgentEventOf<'assistant/delta' | 'reasoning/delta'>): void {
  if (!isTurnOpen(copy, event.turnId)) return;
  const item = ensureItem(copy, event);
  if (item.status !== 'streaming' || event.data.index !== item.deltaCount) return;
  copy.table('items')[item.key] = { ...item, text: item.text + event.data.text, deltaCount: item.deltaCount + 1 };
}

function applyItemFinal(copy: WorkingCopy, event: AgentEventOf<'assistant/completed' | 'assistant/interrupted' | 'reasoning/completed' | 'reasoning/interrupted'>): void {
  if (!copy.state.turns[event.turnId]) return;
  const item = ensureItem(copy, event);
  if (item.status === 'completed') return;
  const interrupted = event.type.endsWith('interrupted');
  copy.table('items')[item.key] = {
    ...item,
    text: event.data.text,
    status: interrupted ? 'interrupted' : 'completed',
    ...('reason' in event.data ? { reason: event.data.reason } : {}),
  };
}

type ToolEvent = AgentEventOf<'tool/input-delta' | 'tool/requested' | 'tool/started' | 'tool/completed' | 'tool/failed' | 'tool/unknown'>;

function ensureToolCall(copy: WorkingCopy, event: ToolEvent, toolName: string): ToolCallState {
  const existing = copy.state.toolCalls[event.toolCallId];
  if (existing) return existing;
  const call: ToolCallState = { toolCallId: event.toolCallId, turnId: event.turnId, ...('stepId' in event ? { stepId: event.stepId } : {}), toolName, argumentsPreview: '', previewCount: 0, status: 'streaming' };
  copy.table('toolCalls')[event.toolCallId] = call;
  addEntry(copy, event.turnId, { kind: 'tool', toolCallId: event.toolCallId });
  return call;
}

function setToolCall(copy: WorkingCopy, event: ToolEvent, change: Partial<ToolCallState>, toolName = ''): void {
  const call = ensureToolCall(copy, event, toolName);
  copy.table('toolCalls')[call.toolCallId] = { ...call, ...change };
}

function applyToolEvent(copy: WorkingCopy, event: ToolEvent): void {
  if (!copy.state.turns[event.turnId]) return;
  switch (event.type) {
    case 'tool/input-delta': {
      if (!isTurnOpen(copy, event.turnId)) return;
      const call = ensureToolCall(copy, event, event.data.toolName);
      if (call.status !== 'streaming' || event.data.index !== call.previewCount) return;
      setToolCall(copy, event, { argumentsPreview: call.argumentsPreview + event.data.delta, previewCount: call.previewCount + 1 });
      return;
    }
    case 'tool/requested':
      setToolCall(copy, event, { toolName: event.data.toolName, stepId: event.stepId, input: event.data.input, status: 'requested' }, event.data.toolName);
      return;
    case 'tool/started':
      setToolCall(copy, event, { status: 'running', startedAt: event.time });
      return;
    case 'tool/completed':
      setToolCall(copy, event, { status: 'done', output: event.data.output, durationMs: event.data.durationMs });
      return;
    case 'tool/failed':
      setToolCall(copy, event, { status: 'failed', output: event.data.output, error: event.data.error, durationMs: event.data.durationMs });
      return;
    case 'tool/unknown':
      setToolCall(copy, event, { status: 'unknown', error: event.data.reason });
  }
}

/** Applies one in-order event to the working copy. Every event type is handled here. */
export function applyEvent(copy: WorkingCopy, event: AgentEvent): void {
  switch (event.type) {
    case 'session/created':
    case 'session/renamed':
      copy.state.title = event.data.title;
      return;
    case 'turn/started':
      if (copy.state.turns[event.turnId]) return;
      copy.table('turns')[event.turnId] = {
        turnId: event.turnId,
        userItemId: event.data.userItemId,
        userText: event.data.text,
        status: 'running',
        startedAt: event.time,
        ...(event.data.retryOf ? { retryOf: event.data.retryOf } : {}),
        entries: [],
        errors: [],
      };
      copy.turnOrder().push(event.turnId);
      return;
    case 'turn/completed':
    case 'turn/aborted':
    case 'turn/interrupted':
      endTurn(copy, event);
      return;
    case 'step/started':
      updateTurn(copy, event.turnId, () => ({ retry: undefined }));
      return;
    case 'step/completed':
      return;
    case 'assistant/delta':
    case 'reasoning/delta':
      applyItemDelta(copy, event);
      return;
    case 'assistant/completed':
    case 'assistant/interrupted':
    case 'reasoning/completed':
    case 'reasoning/interrupted':
      applyItemFinal(copy, event);
      return;
    case 'tool/input-delta':
    case 'tool/requested':
    case 'tool/started':
    case 'tool/completed':
    case 'tool/failed':
    case 'tool/unknown':
      applyToolEvent(copy, event);
      return;
    case 'ask/requested':
      copy.table('requests')[event.requestId] = { requestId: event.requestId, turnId: event.turnId, kind: 'ask', status: 'pending', summary: event.data.question, ...(event.data.expiresAt ? { expiresAt: event.data.expiresAt } : {}) };
      return;
    case 'approval/requested':
      copy.table('requests')[event.requestId] = { requestId: event.requestId, turnId: event.turnId, kind: 'approval', toolCallId: event.toolCallId, status: 'pending', summary: event.data.summary, expiresAt: event.data.expiresAt };
      return;
    case 'ask/answered':
    case 'ask/expired':
    case 'approval/decided':
    case 'approval/expired': {
      const request = copy.state.requests[event.requestId];
      if (!request || request.status !== 'pending') return;
      const status = event.type === 'approval/decided' ? (event.data.decision === 'allow' ? 'allowed' : 'denied') : event.type === 'ask/answered' ? 'answered' : 'expired';
      copy.table('requests')[event.requestId] = { ...request, status };
      return;
    }
    case 'command/state':
      copy.table('commands')[event.commandId] = { commandId: event.commandId, turnId: event.turnId, kind: event.data.kind, state: event.data.state, ...(event.data.text !== undefined ? { text: event.data.text } : {}) };
      return;
    case 'notification':
      copy.notifications().push({ notificationId: event.notificationId, level: event.data.level, message: event.data.message });
      return;
    case 'stream/error': {
      const turn = copy.state.turns[event.turnId];
      if (!turn) return;
      updateTurn(copy, event.turnId, (current) => ({ errors: [...current.errors, { attemptId: event.attemptId, message: event.data.message, code: event.data.code }] }));
      addEntry(copy, event.turnId, { kind: 'error', index: turn.errors.length });
      return;
    }
    case 'stream/retrying':
      if (!isTurnOpen(copy, event.turnId)) return;
      updateTurn(copy, event.turnId, () => ({ retry: { until: event.data.until, delayMs: event.data.delayMs, reason: event.data.reason } }));
      return;
    case 'presence/typing':
    case 'blob/referenced':
    case 'artifact/referenced':
      return;
  }
}
