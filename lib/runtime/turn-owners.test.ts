import { describe, expect, it, vi } from 'vitest';
import { TurnOwners } from './turn-owners';

describe('TurnOwners', () => {
  it('reaches the driver of a turn, and forgets an owner with the turns it still drove', () => {
    const owners = new TurnOwners();
    const panel = vi.fn();
    owners.register('panel-1', panel);
    owners.claim('panel-1', 'turn-1');
    owners.claim('panel-1', 'turn-2');
    owners.release('panel-1', 'turn-1');
    expect(owners.listenerFor('turn-1')).toBeUndefined();
    expect(owners.listenerFor('turn-2')).toBe(panel);
    expect(owners.isOwned('turn-2')).toBe(true);
    expect([...owners.remove('panel-1')]).toEqual(['turn-2']);
    expect(owners.isOwned('turn-2')).toBe(false);
    expect(owners.listenerFor('turn-2')).toBeUndefined();
    expect(owners.remove('never-seen').size).toBe(0);
  });
});
