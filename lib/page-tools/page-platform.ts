import type { PageTab } from './choose-page';
import type { TabActivity } from './tab-activity';
import type { SessionValues } from './session-values';
import type { PageDownloads } from './page-download';

/** What the page tools need of the browser; `entrypoints/shared/page-platform-browser.ts` wires it. */
export interface PagePlatform {
  /** The tabs of a window, or of the last focused window when none is named. */
  tabs(windowId?: number): Promise<PageTab[]>;
  /** The tab, or undefined when it is gone. */
  tab(tabId: number): Promise<PageTab | undefined>;
  /** Opens `url` in a new tab in front of the window (the last focused one when none is named), once it has loaded (or `timeoutMs` passed). */
  openTab(url: string, windowId: number | undefined, timeoutMs: number): Promise<PageTab>;
  /** Brings the tab to the front of its window. */
  activateTab(tabId: number): Promise<void>;
  closeTab(tabId: number): Promise<void>;
  /**
   * Puts the tab into the group `groupId`, or into a new group titled `title`; the group's id, or undefined when
   * the browser has no tab groups (then the runtime's own record of the tabs is the only marker).
   */
  groupTab(tabId: number, title: string, groupId: number | undefined): Promise<number | undefined>;
  /** Whether the extension holds the host permission of this origin (`https://example.com`, `file://`). */
  hasAccess(origin: string): Promise<boolean>;
  /** Injects the page agent (and the main-world page-tools bridge) into every permitted frame of the tab. */
  ensureAgent(tabId: number): Promise<void>;
  /** The tab's frames, each with its parent (-1 for the top frame). */
  frames(tabId: number): Promise<{ frameId: number; parentFrameId: number; url: string }[]>;
  /** One request to the agent of one frame; its unvalidated reply. */
  send(tabId: number, frameId: number, request: unknown): Promise<unknown>;
  /** PNG bytes of the visible part of the window's active tab. */
  capture(windowId: number): Promise<Uint8Array>;
  /** The tab's zoom factor (1 is 100%). */
  zoom(tabId: number): Promise<number>;
  /** Starts loading `url` in the tab and resolves once it has loaded (or `timeoutMs` passed). */
  navigate(tabId: number, url: string, timeoutMs: number): Promise<void>;
  back(tabId: number, timeoutMs: number): Promise<void>;
  /** Resolves once the tab's document has loaded (or `timeoutMs` passed). */
  waitForLoad(tabId: number, timeoutMs: number): Promise<void>;
  /** Reports the tab's failed requests, top-frame navigations and the tabs it opens until the returned stop runs. */
  watchTab(tabId: number, report: (activity: TabActivity) => void): () => void;
  /** Where the conversations' tabs are recorded: kept across a service-worker restart, cleared with the browser. */
  sessionValues: SessionValues;
  /** The browser's downloads (an optional permission); absent where there is no downloads API. */
  downloads?: PageDownloads;
}
