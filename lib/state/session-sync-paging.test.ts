import { describe, expect, it } from 'vitest';
import type { PublisherMessage } from '../protocol/runtime-message';
import { FakeTransport, ManualScheduler } from '../../tests/support/fake-sync';
import { longSessionLog } from '../../tests/support/long-session-log';
import { meaningfulState } from '../../tests/support/meaningful-state';
import { advanceSnapshot, stateOfRows } from '../session-log/snapshot-advance';
import { replayLog } from './reduce-events';
import { SessionSync } from './session-sync';
import { sliceTurns, takeSnapshot } from './state-snapshot';
import { TEST_SNAPSHOT_BOOK } from '../../tests/support/test-runtime';

const SESSION = 'session-1';

/** A conversation of 10 turns whose subscription hands out the last 3, as the runtime's window does. */
function windowed() {
  const log = longSessionLog(SESSION, 10);
  const full = replayLog(SESSION, log);
  const { head, rows } = advanceSnapshot(SESSION, undefined, log, TEST_SNAPSHOT_BOOK)!;
  const window = takeSnapshot(stateOfRows(head, rows.slice(7)))!;
  const transport = new FakeTransport();
  const sync = new SessionSync(SESSION, transport, () => undefined, new ManualScheduler());
  sync.connect();
  sync.receive({
    type: 'events/snapshot',
    sessionId: SESSION,
    generation: 1,
    snapshotSeq: full.lastSeq,
    events: [],
    state: window,
  });
  const page = (before: number, limit: number, lastSeq = full.lastSeq): PublisherMessage => {
    const from = Math.max(0, before - limit);
    return {
      type: 'events/turns',
      sessionId: SESSION,
      generation: 1,
      before,
      olderTurns: from,
      lastSeq,
      turns: sliceTurns(full, full.turnOrder.slice(from, before)),
    };
  };
  return { full, sync, transport, page };
}

describe('SessionSync paging older turns', () => {
  it('opens with the last turns only, asks for the page before them, and merges pages into the whole state', () => {
    const { full, sync, transport, page } = windowed();
    expect(sync.current.turnOrder).toEqual(full.turnOrder.slice(7));
    expect(sync.current.olderTurns).toBe(7);
    sync.loadOlder(4);
    sync.loadOlder(4);
    expect(transport.turnRequests).toEqual([{ sessionId: SESSION, generation: 1, before: 7, limit: 4 }]);
    sync.receive(page(7, 4));
    expect(sync.current.turnOrder).toEqual(full.turnOrder.slice(3));
    expect(sync.current.olderTurns).toBe(3);
    sync.loadOlder(4);
    sync.receive(page(3, 4));
    expect(sync.current.olderTurns).toBe(0);
    expect(meaningfulState(sync.current)).toEqual(meaningfulState(full));
    expect(sync.current.lastSeq).toBe(full.lastSeq);
  });

  it('drops a page of another seq, another position or an old connection, and asks again on the next scroll', () => {
    const { sync, transport, page } = windowed();
    sync.loadOlder(4);
    sync.receive(page(7, 4, 1));
    sync.receive(page(6, 4));
    sync.receive({ ...page(7, 4), generation: 0 } as PublisherMessage);
    expect(sync.current.olderTurns).toBe(7);
    expect(sync.current.turnOrder).toHaveLength(3);
    sync.loadOlder(4);
    expect(transport.turnRequests).toHaveLength(2);
  });

  it('loads the whole history page by page before a turn is sent', async () => {
    const { full, sync, transport, page } = windowed();
    const loaded = sync.loadAll();
    for (let round = 0; round < 3 && sync.current.olderTurns > 0; round++) {
      await Promise.resolve();
      const request = transport.turnRequests.at(-1)!;
      sync.receive(page(request.before, 2));
      await Promise.resolve();
    }
    while (sync.current.olderTurns > 0) {
      await Promise.resolve();
      const request = transport.turnRequests.at(-1)!;
      sync.receive(page(request.before, request.limit));
    }
    expect(meaningfulState(await loaded)).toEqual(meaningfulState(full));
  });

  it('fails the whole-history load when a page is refused, and asks again on the next scroll', async () => {
    const { sync, transport } = windowed();
    const loaded = sync.loadAll();
    await Promise.resolve();
    sync.receive({ type: 'events/error', sessionId: SESSION, generation: 1, message: 'The store refused the read.' });
    await expect(loaded).rejects.toThrow('The store refused the read.');
    sync.loadOlder(4);
    expect(transport.turnRequests).toHaveLength(2);
  });
});

describe('SessionSync when the runtime cannot hand out the session', () => {
  it('ends a whole-history load waiting across a reconnect whose subscription is refused', async () => {
    const { sync } = windowed();
    const loaded = sync.loadAll();
    sync.connect();
    sync.receive({ type: 'events/error', sessionId: SESSION, generation: 2, message: 'QuotaExceededError' });
    await expect(loaded).rejects.toThrow('QuotaExceededError');
  });

  it('reports a refused subscription of its own generation, and ignores one of another session or connection', () => {
    const failures: string[] = [];
    const transport = new FakeTransport();
    const sync = new SessionSync(
      SESSION,
      transport,
      () => undefined,
      new ManualScheduler(),
      (message) => failures.push(message),
    );
    sync.connect();
    sync.receive({ type: 'events/error', sessionId: 'other', generation: 1, message: 'not mine' });
    sync.receive({ type: 'events/error', sessionId: SESSION, generation: 0, message: 'an old connection' });
    sync.receive({ type: 'events/error', message: 'Invalid subscriber message' });
    sync.receive({ type: 'events/error', sessionId: SESSION, generation: 1, message: 'QuotaExceededError' });
    expect(failures).toEqual(['QuotaExceededError']);
    sync.connect();
    expect(transport.subscriptions).toHaveLength(2);
  });
});
