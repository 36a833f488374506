import type { ModelMessage } from 'ai';
import {
  toolOutputImages,
  toolResultContent,
  toolResultMessages,
  userMessageContent,
  type FileContentOptions,
} from '../files/model-file-content';
import { applySummary, type HistoryBoundary, type HistorySummary } from '../context/history-cut';
import type { BlobRef } from '../protocol/blob-ref';
import type { JsonValue } from '../protocol/json-value';
import { resumeMessage } from './resume-message';
import { withAppContexts } from './app-context-message';
import { turnAppContexts } from '../state/app-contexts';
import { activeTurnOrder } from '../state/branch-tree';
import { itemOf, type ClientState, type ToolCallState, type TurnState } from '../state/client-state';

const NO_RESULT: JsonValue = { ok: false, error: 'This call has no recorded result.' };

function resultOf(call: ToolCallState): JsonValue {
  if (call.output !== undefined) return call.output;
  if (call.status === 'unknown') return { ok: false, error: call.error ?? 'Outcome unknown.' };
  return NO_RESULT;
}

type Step = { text: string[]; calls: ToolCallState[] };

function userMessage(state: ClientState, turn: TurnState, files: FileContentOptions | undefined): ModelMessage {
  const contexts = turnAppContexts(state, turn);
  if (!turn.attachments?.length || !files)
    return withAppContexts({ role: 'user', content: turn.userText }, contexts, files);
  const refs = turn.attachments.map((attachment) => attachment.blob);
  return withAppContexts({ role: 'user', content: userMessageContent(turn.userText, refs, files) }, contexts, files);
}

interface Built {
  messages: ModelMessage[];
  boundaries: HistoryBoundary[];
}

function turnMessages(state: ClientState, turn: TurnState, files: FileContentOptions | undefined, built: Built): void {
  const { messages } = built;
  // A step retry has no message: it goes on from its parent's last committed step.
  if (!turn.retriesStep) messages.push(userMessage(state, turn, files));
  let steps = new Map<string, Step>();
  for (const entry of turn.entries) {
    if (entry.kind === 'command') {
      // An applied steer reached the model as a user message after the steps before it.
      const command = state.commands[entry.commandId];
      if (command?.state !== 'applied' || !command.text) continue;
      if (command.kind !== 'steer' && command.kind !== 'resume') continue;
      pushSteps(built, turn.turnId, steps, files);
      // A resume told the model the person acted, with the page as it was then.
      messages.push(
        command.kind === 'resume'
          ? resumeMessage(command.text, command.observation)
          : { role: 'user', content: command.text },
      );
      steps = new Map();
      continue;
    }
    const stepId =
      entry.kind === 'item'
        ? itemOf(state, entry.key)?.stepId
        : entry.kind === 'tool'
          ? state.toolCalls[entry.toolCallId]?.stepId
          : undefined;
    if (!stepId) continue;
    const step = steps.get(stepId) ?? { text: [], calls: [] };
    steps.set(stepId, step);
    if (entry.kind === 'item') {
      const item = itemOf(state, entry.key)!;
      if (item.kind === 'assistant' && item.status === 'completed' && item.text) step.text.push(item.text);
    } else if (entry.kind === 'tool') {
      const call = state.toolCalls[entry.toolCallId];
      if (call.input !== undefined) step.calls.push(call);
    }
  }
  pushSteps(built, turn.turnId, steps, files);
  built.boundaries.push({ index: messages.length, cut: { turnId: turn.turnId } });
}

/** Each step's messages, and after a step with tool calls a boundary a compaction may cut at (as the loop does). */
function pushSteps(
  built: Built,
  turnId: string,
  steps: Map<string, Step>,
  files: FileContentOptions | undefined,
): void {
  const { messages } = built;
  for (const [stepId, step] of steps) {
    if (!step.text.length && !step.calls.length) continue;
    messages.push({
      role: 'assistant',
      content: [
        ...(step.text.length ? [{ type: 'text' as const, text: step.text.join('') }] : []),
        ...step.calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
        })),
      ],
    });
    if (!step.calls.length) continue;
    messages.push(...toolResultMessages(step.calls.map((call) => toolResultContent(call, resultOf(call), files))));
    built.boundaries.push({ index: messages.length, cut: { turnId, stepId } });
  }
}

/**
 * The newest compaction's summary and cut on the branch in view. A compaction through a turn covers that turn's
 * ancestors, which are the same on every branch through it; one through a turn of another branch does not apply.
 */
export function latestSummary(state: ClientState): HistorySummary | undefined {
  const active = new Set(activeTurnOrder(state));
  const latest = state.compactions?.findLast((compaction) => active.has(compaction.throughTurnId));
  if (!latest) return undefined;
  const cut = latest.throughStepId
    ? { turnId: latest.throughTurnId, stepId: latest.throughStepId }
    : { turnId: latest.throughTurnId };
  return { cut, summary: latest.summary };
}

/**
 * The conversation to send to the model, rebuilt from the event state: only the branch in view (the path to
 * `branches.leaf`), without interrupted partials and retried turns, and what the newest compaction covers is its summary. The boundaries say where a later compaction may cut.
 */
export function modelHistoryWithBoundaries(
  state: ClientState,
  files?: FileContentOptions,
): { messages: ModelMessage[]; boundaries: HistoryBoundary[] } {
  const turnOrder = activeTurnOrder(state);
  const retried = new Set(
    turnOrder.map((turnId) => state.turns[turnId].retryOf).filter((turnId) => turnId !== undefined),
  );
  const built: Built = { messages: [], boundaries: [] };
  for (const turnId of turnOrder) if (!retried.has(turnId)) turnMessages(state, state.turns[turnId], files, built);
  return applySummary(built.messages, built.boundaries, latestSummary(state));
}

export function modelHistory(state: ClientState, files?: FileContentOptions): ModelMessage[] {
  return modelHistoryWithBoundaries(state, files).messages;
}

/**
 * Every BlobRef the history may send: the files of each message, the images of the app contexts it carried, and
 * the images of each tool result.
 */
export function historyBlobRefs(state: ClientState): BlobRef[] {
  const turnOrder = activeTurnOrder(state);
  const active = new Set(turnOrder);
  const attached = turnOrder.flatMap((turnId) => {
    const turn = state.turns[turnId];
    const contextImages = turnAppContexts(state, turn).flatMap((context) => context.images ?? []);
    return [...(turn.attachments?.map((attachment) => attachment.blob) ?? []), ...contextImages];
  });
  const images = Object.values(state.toolCalls).flatMap((call) =>
    call.output === undefined || !active.has(call.turnId) ? [] : toolOutputImages(call.output),
  );
  return [...attached, ...images];
}
