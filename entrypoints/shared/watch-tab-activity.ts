import browser, { type Tabs, type WebNavigation, type WebRequest } from 'webextension-polyfill';
import type { TabActivity } from '@/lib/page-tools/tab-activity';

const WEB_URLS = ['http://*/*', 'https://*/*'];

/*
 * A request the page (or the browser, for the document it leaves) cancelled is no failure of the site: navigating
 * away aborts whatever was loading.
 */
const CANCELLED = new Set(['net::ERR_ABORTED', 'NS_BINDING_ABORTED', 'NS_ERROR_ABORT']);

/**
 * The browser's side of an action's evidence, for one tab and only while the action runs: `webRequest` (onCompleted
 * with a status of 400 or more, onErrorOccurred), which reports only requests to hosts the extension may access (the
 * site was granted before any page tool ran); top-frame commits and same-document URL changes of `webNavigation`;
 * and the tabs it opened (`tabs.onCreated` with this tab as opener, `webNavigation.onCreatedNavigationTarget` with it
 * as source; the same tab from both is one). No listener stays registered between actions.
 */
export function watchTabActivity(tabId: number, report: (activity: TabActivity) => void): () => void {
  const filter: WebRequest.RequestFilter = { urls: WEB_URLS, tabId };
  const completed = (details: WebRequest.OnCompletedDetailsType) => {
    if (details.statusCode < 400) return;
    report({
      kind: 'request-failed',
      method: details.method,
      url: details.url,
      resourceType: details.type,
      status: details.statusCode,
    });
  };
  const failed = (details: WebRequest.OnErrorOccurredDetailsType) => {
    if (CANCELLED.has(details.error)) return;
    report({
      kind: 'request-failed',
      method: details.method,
      url: details.url,
      resourceType: details.type,
      error: details.error,
    });
  };
  const navigated = (details: { tabId: number; frameId: number; url: string }) => {
    if (details.tabId === tabId && details.frameId === 0) report({ kind: 'navigated', url: details.url });
  };
  const created = (tab: Tabs.Tab) => {
    if (tab.openerTabId !== tabId || tab.id === undefined) return;
    const pending = (tab as Tabs.Tab & { pendingUrl?: string }).pendingUrl;
    report({ kind: 'tab-opened', tabId: tab.id, url: pending ?? tab.url ?? '' });
  };
  // A link with target=_blank opens without an opener (noopener is the default): only webNavigation names its source.
  const targeted = (details: WebNavigation.OnCreatedNavigationTargetDetailsType) => {
    if (details.sourceTabId === tabId) report({ kind: 'tab-opened', tabId: details.tabId, url: details.url });
  };
  const webRequest = browser.webRequest as typeof browser.webRequest | undefined;
  webRequest?.onCompleted.addListener(completed, filter);
  webRequest?.onErrorOccurred.addListener(failed, filter);
  const navigation: WebNavigation.Static = browser.webNavigation;
  navigation.onCommitted.addListener(navigated);
  navigation.onHistoryStateUpdated.addListener(navigated);
  navigation.onReferenceFragmentUpdated.addListener(navigated);
  navigation.onCreatedNavigationTarget.addListener(targeted);
  browser.tabs.onCreated.addListener(created);
  return () => {
    webRequest?.onCompleted.removeListener(completed);
    webRequest?.onErrorOccurred.removeListener(failed);
    navigation.onCommitted.removeListener(navigated);
    navigation.onHistoryStateUpdated.removeListener(navigated);
    navigation.onReferenceFragmentUpdated.removeListener(navigated);
    navigation.onCreatedNavigationTarget.removeListener(targeted);
    browser.tabs.onCreated.removeListener(created);
  };
}
