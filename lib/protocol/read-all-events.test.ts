import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-event';
import { readAllEvents } from './read-all-events';

function log(length: number): AgentEvent[] {
  return Array.from(
    { length },
    (_, index) =>
      ({
        type: 'notification',
        sessionId: 's',
        seq: index + 1,
        time: index,
        durable: true,
        notificationId: `n-${index}`,
        data: { level: 'info', message: `${index}` },
      }) as AgentEvent,
  );
}

describe('readAllEvents', () => {
  it('reads the whole log after a seq a page at a time, never more than a page per read', async () => {
    for (const length of [0, 1, 4, 5, 6, 23]) {
      const events = log(length);
      const reads: { afterSeq: number; limit: number }[] = [];
      const read = await readAllEvents(
        async (afterSeq, limit) => {
          reads.push({ afterSeq, limit });
          return events.filter((event) => event.seq > afterSeq).slice(0, limit);
        },
        0,
        5,
      );
      expect(read.map((event) => event.seq)).toEqual(events.map((event) => event.seq));
      expect(reads.every((page) => page.limit === 5)).toBe(true);
      expect(reads).toHaveLength(Math.floor(length / 5) + 1);
    }
  });

  it('starts after the seq it is given', async () => {
    const events = log(12);
    const read = await readAllEvents(
      async (afterSeq, limit) => events.filter((event) => event.seq > afterSeq).slice(0, limit),
      7,
      2,
    );
    expect(read.map((event) => event.seq)).toEqual([8, 9, 10, 11, 12]);
  });
});
