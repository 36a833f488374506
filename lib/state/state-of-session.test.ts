import { describe, expect, it } from 'vitest';
import { initialClientState } from './client-state';
import { isHistoryLoaded } from './history-loaded';
import { stateOfSession } from './state-of-session';

describe('stateOfSession', () => {
  it('is the synced state while it is the open conversation', () => {
    const synced = { ...initialClientState('a', 3), title: 'Loaded' };
    expect(stateOfSession('a', synced)).toBe(synced);
  });

  it('is a not-yet-loaded state of the open conversation while the synced one is of the conversation left', () => {
    const left = { ...initialClientState('a', 3), title: 'Left behind' };
    const shown = stateOfSession('b', left)!;
    expect(shown.sessionId).toBe('b');
    expect(shown.title).toBe('New chat');
    expect(isHistoryLoaded(shown)).toBe(false);
  });

  it('is nothing before a conversation is chosen', () => {
    expect(stateOfSession(undefined, initialClientState('a', 1))).toBeUndefined();
  });
});
