import { describe, expect, it } from 'vitest';
import { publisherMessageSchema } from '../protocol/runtime-message';
import { FakeTransport, ManualScheduler } from '../../tests/support/fake-sync';
import { longSessionLog } from '../../tests/support/long-session-log';
import { meaningfulState } from '../../tests/support/meaningful-state';
import type { ClientState } from './client-state';
import { isHistoryLoaded } from './history-loaded';
import { replayLog } from './reduce-events';
import { SessionSync } from './session-sync';
import { takeSnapshot } from './state-snapshot';

describe('SessionSync with a state snapshot', () => {
  it('applies the snapshot state, then the events after it: the same state as the whole log', () => {
    const log = longSessionLog('session-1', 6);
    const cut = Math.floor(log.length / 2);
    const state = takeSnapshot(replayLog('session-1', log.slice(0, cut)))!;
    const message = publisherMessageSchema.parse(
      JSON.parse(
        JSON.stringify({
          type: 'events/snapshot',
          sessionId: 'session-1',
          generation: 1,
          snapshotSeq: log.at(-1)!.seq,
          events: log.slice(cut),
          state,
        }),
      ),
    );
    const changes: ClientState[] = [];
    const sync = new SessionSync('session-1', new FakeTransport(), (next) => changes.push(next), new ManualScheduler());
    expect(isHistoryLoaded(sync.current)).toBe(false);
    sync.connect();
    sync.receive(message);
    expect(isHistoryLoaded(sync.current)).toBe(true);
    expect(meaningfulState(sync.current)).toEqual(meaningfulState(replayLog('session-1', log)));
    expect(changes).toHaveLength(1);
  });
});
