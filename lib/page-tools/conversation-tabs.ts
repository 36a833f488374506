/** Who a tab is to a conversation: one its agent opened, or one of the user's. */
export type TabOwner = 'agent' | 'user';

interface TabsOfConversation {
  /** The tab the page tools act on; none: the page in front, as before any tab tool ran. */
  current?: number;
  opened: Set<number>;
  /** The user's tabs this conversation was given: switched to with approval, or in front when it first switched. */
  given: Set<number>;
  /** The browser's tab group of the opened tabs, when the browser has tab groups. */
  groupId?: number;
}

/**
 * The runtime's record of each conversation's tabs: which it opened (the marker where the browser has no tab
 * groups), which of the user's it was given, and which one the page tools act on. In memory: after a restart a
 * conversation acts on the page in front again, and every tab counts as the user's (closing one asks).
 */
export class ConversationTabs {
  private readonly sessions = new Map<string, TabsOfConversation>();

  private of(sessionId: string): TabsOfConversation {
    let tabs = this.sessions.get(sessionId);
    if (!tabs) {
      tabs = { opened: new Set(), given: new Set() };
      this.sessions.set(sessionId, tabs);
    }
    return tabs;
  }

  current(sessionId: string): number | undefined {
    return this.sessions.get(sessionId)?.current;
  }

  owner(sessionId: string, tabId: number): TabOwner {
    return this.sessions.get(sessionId)?.opened.has(tabId) ? 'agent' : 'user';
  }

  /** Whether the conversation may act on the tab without asking: one it opened, or one of the user's it was given. */
  mayAct(sessionId: string, tabId: number): boolean {
    const tabs = this.sessions.get(sessionId);
    return Boolean(tabs?.opened.has(tabId) || tabs?.given.has(tabId));
  }

  groupId(sessionId: string): number | undefined {
    return this.sessions.get(sessionId)?.groupId;
  }

  noteGroup(sessionId: string, groupId: number | undefined): void {
    const tabs = this.of(sessionId);
    if (groupId === undefined) delete tabs.groupId;
    else tabs.groupId = groupId;
  }

  noteOpened(sessionId: string, tabId: number): void {
    this.of(sessionId).opened.add(tabId);
  }

  /** The tab becomes the current one; `before`, the page the tools acted on until now, stays the conversation's. */
  switchTo(sessionId: string, tabId: number, before: number | undefined): void {
    const tabs = this.of(sessionId);
    if (before !== undefined && !tabs.opened.has(before)) tabs.given.add(before);
    if (!tabs.opened.has(tabId)) tabs.given.add(tabId);
    tabs.current = tabId;
  }

  /** The tab is gone: if it was the current one, the page in front is again. */
  forget(sessionId: string, tabId: number): void {
    const tabs = this.sessions.get(sessionId);
    if (!tabs) return;
    tabs.opened.delete(tabId);
    tabs.given.delete(tabId);
    if (tabs.current === tabId) delete tabs.current;
  }
}
