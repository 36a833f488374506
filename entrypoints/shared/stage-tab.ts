import browser from 'webextension-polyfill';

interface ChromeRuntimeContexts {
  getContexts(filter: { contextTypes: string[]; documentUrls: string[] }): Promise<unknown[]>;
}

const stageUrl = () => browser.runtime.getURL('/stage.html');

export async function openStageTab(): Promise<void> {
  await browser.tabs.create({ url: stageUrl(), active: true });
}

/** Whether a stage tab exists now, connected or not (it may be reconnecting after the runtime restarted). */
export async function stageTabIsOpen(): Promise<boolean> {
  if (import.meta.env.BROWSER === 'firefox')
    return browser.extension.getViews({ type: 'tab' }).some((view) => view.location.href.startsWith(stageUrl()));
  const contexts = (globalThis as unknown as { chrome: { runtime: ChromeRuntimeContexts } }).chrome.runtime;
  return (await contexts.getContexts({ contextTypes: ['TAB'], documentUrls: [stageUrl()] })).length > 0;
}
