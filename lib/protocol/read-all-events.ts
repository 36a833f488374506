import type { AgentEvent } from './agent-event';

/** Events per `events/read` when a whole log is read: each answer stays a few megabytes at most. */
export const READ_PAGE_EVENTS = 2_000;

/** Every durable event after `afterSeq`, read a page at a time in seq order, so no message carries the whole log. */
export async function readAllEvents(
  readPage: (afterSeq: number, limit: number) => Promise<AgentEvent[]>,
  afterSeq: number,
  pageSize = READ_PAGE_EVENTS,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (let after = afterSeq; ;) {
    const page = await readPage(after, pageSize);
    events.push(...page);
    const last = page.at(-1);
    if (page.length < pageSize || !last) return events;
    after = last.seq;
  }
}
