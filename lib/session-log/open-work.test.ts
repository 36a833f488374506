import { describe, expect, it } from 'vitest';
import { EventLog } from '../../tests/support/event-log';
import { OpenWork } from './open-work';

const step = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };

describe('OpenWork', () => {
  it('keeps the deltas of open items, in index order, and drops them when the item or the turn ends', () => {
    const log = new EventLog();
    const work = new OpenWork();
    const observe = (event = log.events.at(-1)!) => work.observe(event);
    log.turnStarted('turn-1');
    observe();
    const first = log.delta({ ...step, itemId: 'a' }, 0, 'Hel');
    observe();
    log.delta({ ...step, itemId: 'a' }, 2, 'skipped: index 1 never came');
    observe();
    const second = log.delta({ ...step, itemId: 'a' }, 1, 'lo');
    observe();
    observe(second);
    const other = log.delta({ ...step, itemId: 'b' }, 0, 'Why', 'reasoning');
    observe();
    expect(work.transientTail()).toEqual([first, second, other]);
    expect(work.itemsOfTurn('turn-1').map((item) => [item.kind, item.text])).toEqual([
      ['assistant', 'Hello'],
      ['reasoning', 'Why'],
    ]);
    log.completed({ ...step, itemId: 'a' }, 'Hello');
    observe();
    expect(work.transientTail()).toEqual([other]);
    log.add({ type: 'turn/aborted', turnId: 'turn-1', data: { reason: 'stop' } });
    observe();
    expect(work.transientTail()).toEqual([]);
    expect(work.openTurns.size).toBe(0);
  });

  it('tracks which turns are open', () => {
    const log = new EventLog();
    const work = new OpenWork();
    work.observe(log.turnStarted('turn-1'));
    work.observe(log.turnStarted('turn-2'));
    work.observe(log.turnCompleted('turn-1'));
    expect([...work.openTurns]).toEqual(['turn-2']);
  });
});
