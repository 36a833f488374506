import type { PagePlatform } from './page-platform';

/** The tabs each session's agent acted in during its current turn: they show the acting badge. */
export class ActingTabs {
  private readonly tabs = new Map<string, Set<number>>();

  constructor(private readonly platform: Pick<PagePlatform, 'send'>) {}

  /** The session's agent acts in this tab: the badge shows until its turn ends. */
  acting(sessionId: string, tabId: number): void {
    const tabs = this.tabs.get(sessionId) ?? new Set<number>();
    tabs.add(tabId);
    this.tabs.set(sessionId, tabs);
    this.sendBadge(tabId, true);
  }

  /** The session's turn ended or paused: the badge goes from every tab it acted in. */
  ended(sessionId: string): void {
    const tabs = this.tabs.get(sessionId);
    this.tabs.delete(sessionId);
    for (const tabId of tabs ?? []) this.sendBadge(tabId, false);
  }

  /** The sessions whose agent acts in this tab now. */
  sessionsIn(tabId: number): string[] {
    return [...this.tabs].filter(([, tabs]) => tabs.has(tabId)).map(([sessionId]) => sessionId);
  }

  private sendBadge(tabId: number, acting: boolean): void {
    void this.platform.send(tabId, 0, { type: 'page/badge', acting }).catch(() => undefined);
  }
}
