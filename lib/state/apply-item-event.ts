import type { AgentEventOf } from '../protocol/agent-event';
import { itemKey, itemOf, type ItemState } from './client-state';
import type { EventAppliers } from './event-appliers';
import { addEntry, isTurnOpen, placeDurableEntry } from './turn-entries';
import type { WorkingCopy } from './working-copy';

type ItemDeltaType = 'assistant/delta' | 'reasoning/delta';
type ItemFinalType = 'assistant/completed' | 'assistant/interrupted' | 'reasoning/completed' | 'reasoning/interrupted';
type ItemEvent = AgentEventOf<ItemDeltaType | ItemFinalType>;

/** A final item leaves the small table of streaming ones for the table of all items. */
export function settleItem(copy: WorkingCopy, item: ItemState): void {
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

function applyItemDelta(copy: WorkingCopy, event: AgentEventOf<ItemDeltaType>): void {
  if (!isTurnOpen(copy, event.turnId)) return;
  const item = ensureItem(copy, event);
  if (item.status !== 'streaming' || event.data.index !== item.deltaCount) return;
  copy.table('streaming')[item.key] = { ...item, text: item.text + event.data.text, deltaCount: item.deltaCount + 1 };
}

function applyItemFinal(copy: WorkingCopy, event: AgentEventOf<ItemFinalType>): void {
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

/** The assistant's text and reasoning: streamed by deltas, then replaced by their whole text. */
export const ITEM_APPLIERS: EventAppliers<ItemDeltaType | ItemFinalType> = {
  'assistant/delta': applyItemDelta,
  'reasoning/delta': applyItemDelta,
  'assistant/completed': applyItemFinal,
  'assistant/interrupted': applyItemFinal,
  'reasoning/completed': applyItemFinal,
  'reasoning/interrupted': applyItemFinal,
};
