import browser, { type Runtime } from 'webextension-polyfill';

/** Whether a message or a port comes from a page of this extension (never a content script or a web page). */
export function isOwnExtensionPage(sender: Runtime.MessageSender): boolean {
  return sender.id === browser.runtime.id && !!sender.url?.startsWith(browser.runtime.getURL('/'));
}
