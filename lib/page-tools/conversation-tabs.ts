import { z } from 'zod';
import type { SessionValues } from './session-values';

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

const tabIdSchema = z.number().int().min(0);

/** The stored form of one conversation's tabs. */
const storedTabsSchema = z.object({
  current: tabIdSchema.optional(),
  opened: z.array(tabIdSchema),
  given: z.array(tabIdSchema),
  groupId: tabIdSchema.optional(),
});
type StoredTabs = z.infer<typeof storedTabsSchema>;

/** The session-values key of a conversation's tabs. */
export function conversationTabsKey(sessionId: string): string {
  return `conversationTabs:${sessionId}`;
}

function fromStored(value: unknown): TabsOfConversation {
  const parsed = storedTabsSchema.safeParse(value);
  if (!parsed.success) return { opened: new Set(), given: new Set() };
  const { current, opened, given, groupId } = parsed.data;
  return {
    ...(current === undefined ? {} : { current }),
    opened: new Set(opened),
    given: new Set(given),
    ...(groupId === undefined ? {} : { groupId }),
  };
}

function toStored(tabs: TabsOfConversation): StoredTabs {
  return {
    ...(tabs.current === undefined ? {} : { current: tabs.current }),
    opened: [...tabs.opened],
    given: [...tabs.given],
    ...(tabs.groupId === undefined ? {} : { groupId: tabs.groupId }),
  };
}

/**
 * The runtime's record of each conversation's tabs: which it opened (the marker where the browser has no tab
 * groups), which of the user's it was given, and which one the page tools act on. Kept in the browser session's
 * values, read once per conversation and written on every change, so it outlives a service-worker restart; a
 * stored value that does not parse counts as none.
 */
export class ConversationTabs {
  private readonly sessions = new Map<string, Promise<TabsOfConversation>>();

  constructor(private readonly values: SessionValues) {}

  private of(sessionId: string): Promise<TabsOfConversation> {
    let tabs = this.sessions.get(sessionId);
    if (!tabs) {
      tabs = this.values.get(conversationTabsKey(sessionId)).then(fromStored, () => fromStored(undefined));
      this.sessions.set(sessionId, tabs);
    }
    return tabs;
  }

  private async change(sessionId: string, edit: (tabs: TabsOfConversation) => void): Promise<void> {
    const tabs = await this.of(sessionId);
    edit(tabs);
    await this.values.set(conversationTabsKey(sessionId), toStored(tabs));
  }

  async current(sessionId: string): Promise<number | undefined> {
    return (await this.of(sessionId)).current;
  }

  async owner(sessionId: string, tabId: number): Promise<TabOwner> {
    return (await this.of(sessionId)).opened.has(tabId) ? 'agent' : 'user';
  }

  /** Whether the conversation may act on the tab without asking: one it opened, or one of the user's it was given. */
  async mayAct(sessionId: string, tabId: number): Promise<boolean> {
    const tabs = await this.of(sessionId);
    return tabs.opened.has(tabId) || tabs.given.has(tabId);
  }

  async groupId(sessionId: string): Promise<number | undefined> {
    return (await this.of(sessionId)).groupId;
  }

  noteGroup(sessionId: string, groupId: number | undefined): Promise<void> {
    return this.change(sessionId, (tabs) => {
      if (groupId === undefined) delete tabs.groupId;
      else tabs.groupId = groupId;
    });
  }

  noteOpened(sessionId: string, tabId: number): Promise<void> {
    return this.change(sessionId, (tabs) => tabs.opened.add(tabId));
  }

  /** The tab becomes the current one; `before`, the page the tools acted on until now, stays the conversation's. */
  switchTo(sessionId: string, tabId: number, before: number | undefined): Promise<void> {
    return this.change(sessionId, (tabs) => {
      if (before !== undefined && !tabs.opened.has(before)) tabs.given.add(before);
      if (!tabs.opened.has(tabId)) tabs.given.add(tabId);
      tabs.current = tabId;
    });
  }

  /** The tab is gone: if it was the current one, the page in front is again. */
  forget(sessionId: string, tabId: number): Promise<void> {
    return this.change(sessionId, (tabs) => {
      tabs.opened.delete(tabId);
      tabs.given.delete(tabId);
      if (tabs.current === tabId) delete tabs.current;
    });
  }

  /** The conversation is deleted: its record goes with it. */
  async forgetSession(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
    await this.values.remove(conversationTabsKey(sessionId));
  }
}
