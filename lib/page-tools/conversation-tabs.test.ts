import { describe, expect, it, vi } from 'vitest';
import { ConversationTabs, conversationTabsKey } from './conversation-tabs';
import { memorySessionValues } from './session-values';

describe('ConversationTabs', () => {
  it('keeps what a conversation opened, was given and acts on across a new instance on the same values', async () => {
    const values = new Map<string, unknown>();
    const before = new ConversationTabs(memorySessionValues(values));
    await before.noteOpened('a', 12);
    await before.noteGroup('a', 3);
    await before.switchTo('a', 12, 7);

    const after = new ConversationTabs(memorySessionValues(values));
    expect(await after.current('a')).toBe(12);
    expect(await after.owner('a', 12)).toBe('agent');
    expect(await after.owner('a', 7)).toBe('user');
    expect(await after.mayAct('a', 7)).toBe(true);
    expect(await after.mayAct('a', 8)).toBe(false);
    expect(await after.groupId('a')).toBe(3);
    expect(await after.current('b')).toBeUndefined();
  });

  it('writes on every change', async () => {
    const values = new Map<string, unknown>();
    const tabs = new ConversationTabs(memorySessionValues(values));
    await tabs.noteOpened('a', 12);
    expect(values.get(conversationTabsKey('a'))).toEqual({ opened: [12], given: [] });
    await tabs.switchTo('a', 12, undefined);
    expect(values.get(conversationTabsKey('a'))).toEqual({ current: 12, opened: [12], given: [] });
    await tabs.forget('a', 12);
    expect(values.get(conversationTabsKey('a'))).toEqual({ opened: [], given: [] });
  });

  it('reads the stored value once per conversation', async () => {
    const store = memorySessionValues();
    const get = vi.spyOn(store, 'get');
    const tabs = new ConversationTabs(store);
    await Promise.all([tabs.current('a'), tabs.owner('a', 1), tabs.mayAct('a', 1)]);
    await tabs.noteOpened('a', 1);
    expect(await tabs.owner('a', 1)).toBe('agent');
    expect(get).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['not an object', 'tabs'],
    ['a tab id that is not a number', { opened: ['12'], given: [] }],
    ['a negative current tab', { current: -1, opened: [], given: [] }],
    ['missing lists', { current: 12 }],
  ])('treats a stored value with %s as none', async (_what, stored) => {
    const values = new Map<string, unknown>([[conversationTabsKey('a'), stored]]);
    const tabs = new ConversationTabs(memorySessionValues(values));
    expect(await tabs.current('a')).toBeUndefined();
    expect(await tabs.owner('a', 12)).toBe('user');
    await tabs.noteOpened('a', 5);
    expect(values.get(conversationTabsKey('a'))).toEqual({ opened: [5], given: [] });
  });

  it('treats a failed read as none', async () => {
    const store = { ...memorySessionValues(), get: () => Promise.reject(new Error('no session storage')) };
    const tabs = new ConversationTabs(store);
    expect(await tabs.current('a')).toBeUndefined();
    expect(await tabs.mayAct('a', 1)).toBe(false);
  });

  it('forgets a deleted conversation, in memory and in the stored values', async () => {
    const values = new Map<string, unknown>();
    const tabs = new ConversationTabs(memorySessionValues(values));
    await tabs.noteOpened('a', 12);
    await tabs.switchTo('a', 12, undefined);
    await tabs.noteOpened('b', 13);
    await tabs.forgetSession('a');
    expect(values.has(conversationTabsKey('a'))).toBe(false);
    expect(await tabs.current('a')).toBeUndefined();
    expect(await tabs.owner('a', 12)).toBe('user');
    expect(await tabs.owner('b', 13)).toBe('agent');
  });
});
