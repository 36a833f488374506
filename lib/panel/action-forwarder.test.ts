import { describe, expect, it } from 'vitest';
import { ActionForwarder } from './action-forwarder';

describe('ActionForwarder', () => {
  it('keeps one object whose functions call the newest version', () => {
    const calls: string[] = [];
    const forwarder = new ActionForwarder({
      send: (text: string) => void calls.push(`first ${text}`),
      count: () => 1,
    });
    const { actions } = forwarder;
    actions.send('a');
    forwarder.update({ send: (text: string) => void calls.push(`second ${text}`), count: () => 2 });
    actions.send('b');
    expect(forwarder.actions).toBe(actions);
    expect(calls).toEqual(['first a', 'second b']);
    expect(actions.count()).toBe(2);
  });

  it('calls through synchronously, inside the caller (a click keeps its user gesture)', () => {
    let inside = false;
    let seen = false;
    const forwarder = new ActionForwarder({ decide: () => void (seen = inside) });
    inside = true;
    forwarder.actions.decide();
    inside = false;
    expect(seen).toBe(true);
  });
});
