import type { AgentEvent, AgentEventOf } from '../protocol/agent-event';
import { addStartedTurn, rewindTo, switchLeaf } from './branch-tree';
import { addCalibrationStep } from './prompt-calibration';
import { addTokenUsage } from '../protocol/add-token-usage';
import { addUsageByModel } from '../usage/add-usage-by-model';
import { applyNotifyEvent } from './apply-notify-event';
import { applyUploadEvent } from './apply-upload-event';
import {
  itemKey,
  itemOf,
  type ItemState,
  type RequestState,
  type ToolCallState,
  type TurnEntry,
  type TurnState,
} from './client-state';
import { applyJobEvent, isJobEvent } from './apply-job-event';
import { applyViewArtifactEvent, isViewArtifactEvent } from './apply-view-artifact-event';
import type { WorkingCopy } from './working-copy';

function updateTurn(copy: WorkingCopy, turnId: string, change: (turn: TurnState) => Partial<TurnState>): void {
  const turn = copy.state.turns[turnId];
  if (!turn) return;
  copy.table('turns')[turnId] = { ...turn, ...change(turn) };
}

function addEntry(copy: WorkingCopy, turnId: string, entry: TurnEntry): void {
  updateTurn(copy, turnId, (turn) => ({ entries: [...turn.entries, entry] }));
}

function sameEntry(left: TurnEntry, right: TurnEntry): boolean {
  if (left.kind === 'item' && right.kind === 'item') return left.key === right.key;
  if (left.kind === 'tool' && right.kind === 'tool') return left.toolCallId === right.toolCallId;
  if (left.kind === 'command' && right.kind === 'command') return left.commandId === right.commandId;
  return left.kind === 'error' && right.kind === 'error' && left.index === right.index;
}

/** An entry only transient events have shown so far; the log does not know it yet. */
function isProvisional(copy: WorkingCopy, entry: TurnEntry): boolean {
  if (entry.kind === 'item') return entry.key in copy.state.streaming;
  if (entry.kind === 'tool') return copy.state.toolCalls[entry.toolCallId]?.status === 'streaming';
  return false;
}

/**
 * Places an entry at its first durable event: after every entry the log already knows and before the ones
 * only deltas have shown. Entries then end up in the log's order however many deltas this client missed,
 * so live state equals a replay of the log.
 */
function placeDurableEntry(copy: WorkingCopy, turnId: string, entry: TurnEntry): void {
  updateTurn(copy, turnId, (turn) => {
    const others = turn.entries.filter((candidate) => !sameEntry(candidate, entry));
    const boundary = others.findIndex((candidate) => isProvisional(copy, candidate));
    const at = boundary === -1 ? others.length : boundary;
    return { entries: [...others.slice(0, at), entry, ...others.slice(at)] };
  });
}

function isTurnOpen(copy: WorkingCopy, turnId: string): boolean {
  return copy.state.turns[turnId]?.status === 'running';
}

function endTurn(copy: WorkingCopy, event: AgentEventOf<'turn/completed' | 'turn/aborted' | 'turn/interrupted'>): void {
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

/** Durable events apply once each, in seq order, so adding here equals a sum over the log. */
function addStepUsage(copy: WorkingCopy, event: AgentEventOf<'step/completed'>): void {
  const { usage, model, promptEstimate } = event.data;
  if (usage?.inputTokens !== undefined)
    copy.state.lastPrompt = { model: model ?? '', tokens: usage.inputTokens, reported: true };
  else if (promptEstimate !== undefined)
    copy.state.lastPrompt = { model: model ?? '', tokens: promptEstimate, reported: false };
  if (!usage) return;
  addCalibration(copy, model ?? '', event.data.promptEstimate, usage.inputTokens);
  updateTurn(copy, event.turnId, (turn) => ({
    usage: addTokenUsage(turn.usage, usage),
    usageByModel: addUsageByModel(turn.usageByModel, model, usage),
  }));
  copy.state.usage = addTokenUsage(copy.state.usage, usage);
  copy.state.usageByModel = addUsageByModel(copy.state.usageByModel, model, usage);
}

function addCalibration(copy: WorkingCopy, model: string, estimated?: number, reported?: number): void {
  const next = addCalibrationStep(copy.state.calibration?.[model], estimated, reported);
  if (next) copy.state.calibration = { ...copy.state.calibration, [model]: next };
}

type ItemEvent = AgentEventOf<
  | 'assistant/delta'
  | 'assistant/completed'
  | 'assistant/interrupted'
  | 'reasoning/delta'
  | 'reasoning/completed'
  | 'reasoning/interrupted'
>;

/** A final item leaves the small table of streaming ones for the table of all items. */
function settleItem(copy: WorkingCopy, item: ItemState): void {
  if (item.key in copy.state.streaming) delete copy.table('streaming')[item.key];
  copy.table('items')[item.key] = item;
}

function ensureItem(copy: WorkingCopy, event: ItemEvent): ItemState {
  const key = itemKey(event.itemId, event.attemptId);
  const existing = itemOf(copy.state, key);
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
  copy.table('streaming')[key] = item;
  addEntry(copy, event.turnId, { kind: 'item', key });
  return item;
}

function applyItemDelta(copy: WorkingCopy, event: AgentEventOf<'assistant/delta' | 'reasoning/delta'>): void {
  if (!isTurnOpen(copy, event.turnId)) return;
  const item = ensureItem(copy, event);
  if (item.status !== 'streaming' || event.data.index !== item.deltaCount) return;
  copy.table('streaming')[item.key] = { ...item, text: item.text + event.data.text, deltaCount: item.deltaCount + 1 };
}

function applyItemFinal(
  copy: WorkingCopy,
  event: AgentEventOf<
    'assistant/completed' | 'assistant/interrupted' | 'reasoning/completed' | 'reasoning/interrupted'
  >,
): void {
  if (!copy.state.turns[event.turnId]) return;
  const item = ensureItem(copy, event);
  // The first final event of an attempt wins: a completed item is never appended to, an interrupted attempt stays interrupted.
  if (item.status !== 'streaming') return;
  placeDurableEntry(copy, event.turnId, { kind: 'item', key: item.key });
  const interrupted = event.type.endsWith('interrupted');
  settleItem(copy, {
    ...item,
    text: event.data.text,
    status: interrupted ? 'interrupted' : 'completed',
    ...('reason' in event.data ? { reason: event.data.reason } : {}),
  });
}

type ToolEvent = AgentEventOf<
  | 'tool/input-delta'
  | 'tool/requested'
  | 'tool/started'
  | 'tool/completed'
  | 'tool/failed'
  | 'tool/unknown'
  | 'tool/denied'
>;

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

/** A request answered, decided or expired is never brought back by a later request with the same id. */
function isSettled(copy: WorkingCopy, requestId: string): boolean {
  const request = copy.state.requests[requestId];
  return request !== undefined && request.status !== 'pending';
}

function settledRequest(
  event: AgentEventOf<'ask/answered' | 'ask/expired' | 'approval/decided' | 'approval/expired'>,
): Partial<RequestState> {
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

/** Applies one in-order event to the working copy. Every event type is handled here. */
export function applyEvent(copy: WorkingCopy, event: AgentEvent): void {
  if (isJobEvent(event)) return applyJobEvent(copy, event);
  if (isViewArtifactEvent(event)) return applyViewArtifactEvent(copy, event);
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
        ...(event.data.retriesToolCall ? { retriesToolCall: event.data.retriesToolCall } : {}),
        ...(event.data.retriesStep ? { retriesStep: event.data.retriesStep } : {}),
        ...(event.data.attachments?.length ? { attachments: event.data.attachments } : {}),
        ...(event.data.appContexts?.length ? { appContextIds: event.data.appContexts } : {}),
        entries: [],
        errors: [],
      };
      copy.turnOrder().push(event.turnId);
      addStartedTurn(copy.branches(), event.turnId, event.data.parentTurnId, event.data.answerOf);
      return;
    case 'branch/switched':
      if (event.turnId in copy.state.branches.parents) switchLeaf(copy.branches(), event.turnId);
      return;
    case 'rewind/applied':
      if (event.turnId in copy.state.branches.parents) rewindTo(copy.branches(), event.turnId, event.data.mode);
      return;
    // What a rewind did outside the log (the stage, the saved values): the view changed with `rewind/applied`.
    case 'rewind/completed':
      return;
    case 'turn/completed':
    case 'turn/aborted':
    case 'turn/interrupted':
      endTurn(copy, event);
      return;
    case 'turn/paused':
      if (isTurnOpen(copy, event.turnId)) updateTurn(copy, event.turnId, () => ({ status: 'paused' }));
      return;
    case 'turn/resumed':
      applyResume(copy, event);
      return;
    case 'step/started':
      updateTurn(copy, event.turnId, () => ({ retry: undefined }));
      return;
    case 'step/completed':
      addStepUsage(copy, event);
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
    case 'tool/denied':
      applyToolEvent(copy, event);
      return;
    case 'tool/retried':
      applyToolRetried(copy, event);
      return;
    case 'ask/requested':
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
      return;
    case 'approval/requested':
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
      };
      return;
    case 'ask/answered':
    case 'ask/expired':
    case 'approval/decided':
    case 'approval/expired': {
      const request = copy.state.requests[event.requestId];
      if (!request || request.status !== 'pending') return;
      copy.table('requests')[event.requestId] = { ...request, ...settledRequest(event) };
      return;
    }
    case 'command/state':
      applyCommand(copy, event);
      return;
    case 'notification':
      copy
        .notifications()
        .push({ notificationId: event.notificationId, level: event.data.level, message: event.data.message });
      return;
    case 'stream/error': {
      const turn = copy.state.turns[event.turnId];
      if (!turn) return;
      updateTurn(copy, event.turnId, (current) => ({
        errors: [...current.errors, { attemptId: event.attemptId, message: event.data.message, code: event.data.code }],
      }));
      placeDurableEntry(copy, event.turnId, { kind: 'error', index: turn.errors.length });
      return;
    }
    case 'stream/retrying':
      if (!isTurnOpen(copy, event.turnId)) return;
      updateTurn(copy, event.turnId, () => ({
        retry: { until: event.data.until, delayMs: event.data.delayMs, reason: event.data.reason },
      }));
      return;
    case 'notify/job-finished':
    case 'notify/budget-reached':
    case 'notify/security-warning':
    case 'notify/access-revoked':
    case 'notify/dismissed':
      applyNotifyEvent(copy, event);
      break;
    case 'upload/state':
      applyUploadEvent(copy, event);
      return;
    case 'presence/typing':
    case 'blob/referenced':
    case 'artifact/referenced':
      return;
    // Authored targets are listed by the runtime (listTargets, the toolbar popup); the conversation shows their tool calls.
    case 'artifact/created':
    case 'artifact/validating':
    case 'artifact/ready':
    case 'artifact/rejected':
    case 'artifact/superseded':
    case 'artifact/permission-granted':
    case 'artifact/permission-revoked':
      return;
    case 'context/compacted':
      return applyCompaction(copy, event);
    case 'mcp-app/context':
      return applyAppContext(copy, event);
  }
}

function applyAppContext(copy: WorkingCopy, event: AgentEventOf<'mcp-app/context'>): void {
  const { structuredContent, ...data } = event.data;
  copy.state.appContexts = {
    ...copy.state.appContexts,
    [event.contextId]: {
      contextId: event.contextId,
      seq: event.seq,
      time: event.time,
      ...data,
      ...(structuredContent ? { structuredContent } : {}),
    },
  };
}

/** A compaction recorded twice (a worker restarted while its append was acknowledged) is one compaction. */
function applyCompaction(copy: WorkingCopy, event: AgentEventOf<'context/compacted'>): void {
  const known = copy.state.compactions ?? [];
  if (known.some((compaction) => compaction.compactionId === event.compactionId)) return;
  const { fallbackReason, throughStepId, ...data } = event.data;
  copy.state.compactions = [
    ...known,
    {
      compactionId: event.compactionId,
      seq: event.seq,
      time: event.time,
      fromSeq: (known.at(-1)?.seq ?? 0) + 1,
      toSeq: event.seq - 1,
      ...data,
      ...(throughStepId ? { throughStepId } : {}),
      ...(fallbackReason ? { fallbackReason } : {}),
    },
  ];
}
