import { describe, expect, it } from 'vitest';
import { replayLog } from '../state/reduce-events';
import { longSessionLog } from '../../tests/support/long-session-log';
import { estimateTurnHeight } from './estimate-turn-height';

describe('estimateTurnHeight', () => {
  it('grows with what a turn holds: a long turn with a tool card, code and a table is far taller than a one-liner', () => {
    const state = replayLog('session-1', longSessionLog('session-1', 2));
    const long = estimateTurnHeight(state.turns['turn-1'], state);
    const bare = estimateTurnHeight({ ...state.turns['turn-1'], entries: [] }, state);
    expect(bare).toBeGreaterThan(0);
    expect(long).toBeGreaterThan(bare + 300);
  });

  it('gives a turn it does not know a positive height', () => {
    expect(estimateTurnHeight(undefined, { items: {}, streaming: {} })).toBeGreaterThan(0);
  });
});
