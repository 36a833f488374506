import browser from 'webextension-polyfill';
import { TARGET_CATALOG_PATH } from '@/lib/protocol/target-catalog';

/** The built-in catalog as the build wrote it into the extension, not yet validated. */
export async function fetchBuiltInTargetCatalog(): Promise<unknown> {
  return (await fetch(browser.runtime.getURL(`/${TARGET_CATALOG_PATH}` as '/'))).json();
}
