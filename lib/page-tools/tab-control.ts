import type { ToolOutput } from '../protocol/tool-output';
import type { SiteMode } from '../settings/site-modes-store';
import { pageRefusal, siteLabel, siteOrigin, type PageChoice, type PageTab } from './choose-page';
import { ConversationTabs } from './conversation-tabs';
import type { PageGate } from './page-approval';
import type { PageFence } from './page-fence';
import type { PagePlatform } from './page-platform';
import type { TabToolInput, TabToolName } from './tab-tool-inputs';

export interface TabControlDependencies {
  platform: PagePlatform;
  siteMode(origin: string): Promise<SiteMode>;
  /** The conversation's title: the name of its tab group. */
  sessionTitle(sessionId: string): Promise<string>;
}

/** Where a tab tool runs: the conversation, its panel's window and tab, and the page the tools act on now. */
export interface TabCallContext {
  sessionId: string;
  windowId?: number;
  panelTabId?: number;
  page: PageChoice;
}

/** A tab tool's answer; `observe`: the tab now in front of the conversation, to be observed into the answer. */
export interface TabStep {
  output: ToolOutput;
  observe?: PageTab;
}

const LOAD_TIMEOUT_MS = 10_000;
const GROUP_FALLBACK_TITLE = 'Splitbrain';

/**
 * The tabs of a conversation: the agent's own tabs, in a tab group named after the conversation, and the user's
 * other tabs, listed but asked about before the conversation switches to one or closes one.
 */
export class TabControl {
  readonly tabs: ConversationTabs;

  constructor(private readonly dependencies: TabControlDependencies) {
    this.tabs = new ConversationTabs(dependencies.platform.sessionValues);
  }

  /** The conversation's current tab while it is open; a closed one is forgotten (the page in front is again). */
  async currentTab(sessionId: string): Promise<PageTab | undefined> {
    const tabId = await this.tabs.current(sessionId);
    if (tabId === undefined) return undefined;
    const tab = await this.dependencies.platform.tab(tabId).catch(() => undefined);
    if (!tab) await this.tabs.forget(sessionId, tabId);
    return tab;
  }

  async gate(toolName: TabToolName, input: Record<string, unknown>, context: TabCallContext): Promise<PageGate> {
    if (toolName === 'listTabs') return { required: false };
    if (toolName === 'openTab') return this.openGate(String(input.url ?? ''));
    const tabId = typeof input.tabId === 'number' ? input.tabId : -1;
    const tab = await this.dependencies.platform.tab(tabId).catch(() => undefined);
    if (!tab || (await this.tabs.owner(context.sessionId, tabId)) === 'agent') return { required: false };
    const described = `your tab ${quote(tab.title ?? '')} (${tab.url ? siteLabelOf(tab.url) : 'no address'})`;
    if (toolName === 'closeTab') return { required: true, summary: `Close ${described}?`, always: true };
    const alreadyIn = context.page.ok && context.page.tab.tabId === tabId;
    if (alreadyIn || (await this.tabs.mayAct(context.sessionId, tabId))) return { required: false };
    return { required: true, summary: `Switch to ${described} and let Splitbrain act on it?`, always: true };
  }

  private async openGate(url: string): Promise<PageGate> {
    if (webAddressRefusal(url)) return { required: false };
    const origin = siteOrigin(url);
    const summary = `Open ${quote(url)} in a new tab of this conversation.`;
    if (!(await this.dependencies.platform.hasAccess(origin)))
      return {
        required: true,
        siteOrigin: origin,
        summary: `Let Splitbrain read and act on ${siteLabel(origin)}? Then: ${summary}`,
        always: true,
      };
    return (await this.dependencies.siteMode(origin)) === 'allow'
      ? { required: false }
      : { required: true, summary, always: false };
  }

  execute(
    toolName: TabToolName,
    input: TabToolInput<TabToolName>,
    context: TabCallContext,
    fence: PageFence,
  ): Promise<TabStep> {
    switch (toolName) {
      case 'listTabs':
        return this.list(context, fence);
      case 'openTab':
        return this.open((input as TabToolInput<'openTab'>).url, context, fence);
      case 'switchTab':
        return this.switchTo((input as TabToolInput<'switchTab'>).tabId, context, fence);
      case 'closeTab':
        return this.close((input as TabToolInput<'closeTab'>).tabId, context);
    }
  }

  private async list(context: TabCallContext, fence: PageFence): Promise<TabStep> {
    const all = await this.dependencies.platform.tabs(context.windowId);
    const currentTabId = context.page.ok ? context.page.tab.tabId : null;
    const shown = all.filter((tab) => tab.tabId !== context.panelTabId && pageRefusal(tab.url) === undefined);
    const tabs = await Promise.all(
      shown.map(async (tab) => ({
        ...(await this.describe(tab, context.sessionId, fence)),
        current: tab.tabId === currentTabId,
        inFront: tab.active,
      })),
    );
    return { output: { ok: true, currentTabId, tabs } };
  }

  private async open(url: string, context: TabCallContext, fence: PageFence): Promise<TabStep> {
    const refusal = webAddressRefusal(url);
    if (refusal) return { output: { ok: false, code: 'INVALID_INPUT', error: refusal } };
    const { platform } = this.dependencies;
    const tab = await platform.openTab(new URL(url).href, context.windowId, LOAD_TIMEOUT_MS);
    await this.tabs.noteOpened(context.sessionId, tab.tabId);
    const grouped = await this.group(tab.tabId, context.sessionId);
    await this.tabs.switchTo(context.sessionId, tab.tabId, context.page.ok ? context.page.tab.tabId : undefined);
    return { output: { ok: true, ...(await this.describe(tab, context.sessionId, fence)), grouped }, observe: tab };
  }

  /** Into the conversation's group, or a new one when it has none yet or its group is gone with its last tab. */
  private async group(tabId: number, sessionId: string): Promise<boolean> {
    const { platform, sessionTitle } = this.dependencies;
    const title = (await sessionTitle(sessionId).catch(() => '')) || GROUP_FALLBACK_TITLE;
    const known = await this.tabs.groupId(sessionId);
    const groupId = await platform
      .groupTab(tabId, title, known)
      .catch(() => (known === undefined ? undefined : platform.groupTab(tabId, title, undefined)))
      .catch(() => undefined);
    await this.tabs.noteGroup(sessionId, groupId);
    return groupId !== undefined;
  }

  private async switchTo(tabId: number, context: TabCallContext, fence: PageFence): Promise<TabStep> {
    const { platform } = this.dependencies;
    const tab = await platform.tab(tabId).catch(() => undefined);
    if (!tab) return { output: tabGone(tabId) };
    const refusal = pageRefusal(tab.url);
    if (refusal) return { output: { ok: false, code: 'NO_PAGE', error: `NO_PAGE: ${refusal}`, reason: refusal } };
    await platform.activateTab(tabId);
    await this.tabs.switchTo(context.sessionId, tabId, context.page.ok ? context.page.tab.tabId : undefined);
    const now = (await platform.tab(tabId).catch(() => undefined)) ?? tab;
    return { output: { ok: true, ...(await this.describe(now, context.sessionId, fence)) }, observe: now };
  }

  private async close(tabId: number, context: TabCallContext): Promise<TabStep> {
    const { platform } = this.dependencies;
    const tab = await platform.tab(tabId).catch(() => undefined);
    if (!tab) return { output: tabGone(tabId) };
    const owner = await this.tabs.owner(context.sessionId, tabId);
    await platform.closeTab(tabId);
    const wasCurrent = context.page.ok && context.page.tab.tabId === tabId;
    await this.tabs.forget(context.sessionId, tabId);
    return {
      output: {
        ok: true,
        closed: tabId,
        owner,
        ...(wasCurrent ? { note: 'That was the current tab: the page tools act on the page in front again.' } : {}),
      },
    };
  }

  private async describe(tab: PageTab, sessionId: string, fence: PageFence) {
    return {
      tabId: tab.tabId,
      title: fence.wrap(tab.title ?? ''),
      url: tab.url ?? '',
      owner: await this.tabs.owner(sessionId, tab.tabId),
    };
  }
}

function tabGone(tabId: number): ToolOutput {
  const reason = `Tab ${tabId} is not open (closed, or never was): call listTabs.`;
  return { ok: false, code: 'TAB_GONE', error: `TAB_GONE: ${reason}`, reason };
}

/** Why `url` cannot be opened in a tab: only http(s) web pages can. */
export function webAddressRefusal(url: string): string | undefined {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || pageRefusal(url))
    return `Only http(s) web pages can be opened, not "${url.slice(0, 200)}".`;
  return undefined;
}

function siteLabelOf(url: string): string {
  return pageRefusal(url) ? 'a browser page' : siteLabel(siteOrigin(url));
}

function quote(text: string): string {
  return `"${text.length > 80 ? `${text.slice(0, 79)}…` : text}"`;
}
