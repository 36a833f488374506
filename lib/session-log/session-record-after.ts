import type { AgentEvent } from '../protocol/agent-event';
import { addTokenUsage } from '../protocol/add-token-usage';
import type { SessionRecord } from '../protocol/session-record';

export function sessionRecordAfter(
  previous: SessionRecord | undefined,
  sessionId: string,
  events: readonly AgentEvent[],
  batchId?: string,
): SessionRecord {
  const record: SessionRecord = previous
    ? { ...previous }
    : { sessionId, title: 'New chat', createdAt: events[0]?.time ?? 0, updatedAt: 0, lastSeq: 0 };
  for (const event of events) {
    if (event.type === 'session/created' || event.type === 'session/renamed') record.title = event.data.title;
    record.updatedAt = Math.max(record.updatedAt, event.time);
    record.lastSeq = Math.max(record.lastSeq, event.seq);
    if (event.type === 'step/completed' && event.data.usage) {
      const usage = addTokenUsage(record.usage, event.data.usage);
      if (usage) record.usage = usage;
    }
  }
  if (batchId !== undefined) record.lastBatchId = batchId;
  return record;
}
