import { describe, expect, it } from 'vitest';
import { composerPress } from './composer-press';

const ready = { canSend: true, disabled: false, loading: false, running: false };

describe('composerPress', () => {
  it('sends, or adds to the turn this panel drives', () => {
    expect(composerPress(ready)).toBe('send');
    expect(composerPress({ ...ready, running: true })).toBe('add-to-turn');
  });

  it('keeps a press made while the conversation loads, to send once it has loaded', () => {
    expect(composerPress({ ...ready, loading: true })).toBe('send-once-loaded');
  });

  it('does nothing without a message or an endpoint', () => {
    expect(composerPress({ ...ready, canSend: false })).toBe('nothing');
    expect(composerPress({ ...ready, canSend: false, loading: true })).toBe('nothing');
    expect(composerPress({ ...ready, disabled: true })).toBe('nothing');
  });
});
