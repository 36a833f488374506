import browser from 'webextension-polyfill';

/** The address of a file of the extension (`stage.html`, `targets/speed/index.html`). */
export function extensionUrl(path: string): string {
  return browser.runtime.getURL(`/${path}` as '/');
}
