import type { AgentEventOf } from '../protocol/agent-event';
import type { ToolCallState } from './client-state';
import type { EventAppliers } from './event-appliers';
import { addEntry, isTurnOpen, placeDurableEntry } from './turn-entries';
import type { WorkingCopy } from './working-copy';

type ToolEventType =
  | 'tool/input-delta'
  | 'tool/requested'
  | 'tool/started'
  | 'tool/completed'
  | 'tool/failed'
  | 'tool/unknown'
  | 'tool/denied';
type ToolEvent = AgentEventOf<ToolEventType>;

function ensureToolCall(copy: WorkingCopy, event: ToolEvent, toolName: string): ToolCallState {
  const existing = copy.state.toolCalls[event.toolCallId];
  if (existing) return existing;
  const call: ToolCallState = {
    toolCallId: event.toolCallId,
    turnId: event.turnId,
    ...('stepId' in event ? { stepId: event.stepId } : {}),
    toolName,
    argumentsPreview: '',
    previewCount: 0,
    status: 'streaming',
  };
  copy.table('toolCalls')[event.toolCallId] = call;
  addEntry(copy, event.turnId, { kind: 'tool', toolCallId: event.toolCallId });
  return call;
}

function setToolCall(copy: WorkingCopy, event: ToolEvent, change: Partial<ToolCallState>, toolName = ''): void {
  const call = ensureToolCall(copy, event, toolName);
  if (event.durable && call.status === 'streaming')
    placeDurableEntry(copy, event.turnId, { kind: 'tool', toolCallId: call.toolCallId });
  copy.table('toolCalls')[call.toolCallId] = { ...call, ...change };
}

function targetOf(event: AgentEventOf<'tool/requested' | 'tool/started'>): Pick<ToolCallState, 'targetId'> {
  return event.data.targetId ? { targetId: event.data.targetId } : {};
}

function applyToolEvent(copy: WorkingCopy, event: ToolEvent): void {
  if (!copy.state.turns[event.turnId]) return;
  switch (event.type) {
    case 'tool/input-delta': {
      if (!isTurnOpen(copy, event.turnId)) return;
      const call = ensureToolCall(copy, event, event.data.toolName);
      if (call.status !== 'streaming' || event.data.index !== call.previewCount) return;
      setToolCall(copy, event, {
        argumentsPreview: call.argumentsPreview + event.data.delta,
        previewCount: call.previewCount + 1,
      });
      return;
    }
    case 'tool/requested':
      setToolCall(
        copy,
        event,
        {
          toolName: event.data.toolName,
          stepId: event.stepId,
          input: event.data.input,
          status: 'requested',
          ...targetOf(event),
        },
        event.data.toolName,
      );
      return;
    case 'tool/started':
      setToolCall(copy, event, { status: 'running', startedAt: event.time, ...targetOf(event) });
      return;
    case 'tool/completed':
      setToolCall(copy, event, { status: 'done', output: event.data.output, durationMs: event.data.durationMs });
      return;
    case 'tool/failed':
      setToolCall(copy, event, {
        status: 'failed',
        output: event.data.output,
        error: event.data.error,
        durationMs: event.data.durationMs,
      });
      return;
    case 'tool/unknown':
      setToolCall(copy, event, { status: 'unknown', error: event.data.reason });
      return;
    case 'tool/denied':
      setToolCall(copy, event, { status: 'denied', output: event.data.output, error: event.data.reason });
  }
}

/**
 * A retry's attempt is a call of its own in the retrying turn, made before its `tool/requested` arrives, that names
 * the call it retries and its number; the first attempt's record is left as it was, in its own turn.
 */
function applyToolRetried(copy: WorkingCopy, event: AgentEventOf<'tool/retried'>): void {
  const first = copy.state.toolCalls[event.toolCallId];
  if (!first || !copy.state.turns[event.turnId] || copy.state.toolCalls[event.attemptId]) return;
  copy.table('toolCalls')[event.attemptId] = {
    toolCallId: event.attemptId,
    turnId: event.turnId,
    stepId: event.attemptId,
    toolName: first.toolName,
    ...(first.input !== undefined ? { input: first.input } : {}),
    ...(first.targetId ? { targetId: first.targetId } : {}),
    argumentsPreview: '',
    previewCount: 0,
    status: 'requested',
    retryOf: first.toolCallId,
    attempt: event.data.attempt,
  };
  placeDurableEntry(copy, event.turnId, { kind: 'tool', toolCallId: event.attemptId });
}

/** Tool calls: their arguments as they stream, their request, run and outcome, and their retries. */
export const TOOL_APPLIERS: EventAppliers<ToolEventType | 'tool/retried'> = {
  'tool/input-delta': applyToolEvent,
  'tool/requested': applyToolEvent,
  'tool/started': applyToolEvent,
  'tool/completed': applyToolEvent,
  'tool/failed': applyToolEvent,
  'tool/unknown': applyToolEvent,
  'tool/denied': applyToolEvent,
  'tool/retried': applyToolRetried,
};
