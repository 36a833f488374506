import browser, { type Downloads } from 'webextension-polyfill';
import type { PageDownload, PageDownloads } from '@/lib/page-tools/page-download';

const PERMISSION = { permissions: ['downloads' as const] };

function pageDownload(item: Downloads.DownloadItem): PageDownload {
  const size = item.fileSize > 0 ? item.fileSize : item.totalBytes;
  return {
    downloadId: item.id,
    url: item.url,
    ...((item as { finalUrl?: string }).finalUrl ? { finalUrl: (item as { finalUrl?: string }).finalUrl } : {}),
    ...(item.referrer ? { referrer: item.referrer } : {}),
    filename: item.filename,
    mime: item.mime ?? '',
    bytes: size >= 0 ? size : -1,
    state: item.state,
    ...(item.error ? { error: String(item.error) } : {}),
    exists: item.exists,
  };
}

/**
 * The browser's downloads, behind the optional `downloads` permission (the API is there only once it is granted).
 * Nothing here opens or shows a downloaded file.
 */
export const browserDownloads: PageDownloads = {
  permitted: () => browser.permissions.contains(PERMISSION),
  watch: (report) => {
    const downloads = browser.downloads as typeof browser.downloads | undefined;
    if (!downloads) return () => undefined;
    const created = (item: Downloads.DownloadItem) => report(pageDownload(item), true);
    const changed = (delta: Downloads.OnChangedDownloadDeltaType) => {
      void downloads.search({ id: delta.id }).then(([item]) => item && report(pageDownload(item), false));
    };
    downloads.onCreated.addListener(created);
    downloads.onChanged.addListener(changed);
    return () => {
      downloads.onCreated.removeListener(created);
      downloads.onChanged.removeListener(changed);
    };
  },
  remove: async (downloadId) => removeDownload(downloadId),
};

/** Cancels it if it still runs, deletes the file if it is on disk, and erases it from the browser's list. */
export async function removeDownload(downloadId: number): Promise<void> {
  const [item] = await browser.downloads.search({ id: downloadId });
  if (!item) return;
  if (item.state === 'in_progress') await browser.downloads.cancel(downloadId);
  else if (item.exists) await browser.downloads.removeFile(downloadId);
  await browser.downloads.erase({ id: downloadId });
}

/** Asks the user for the downloads permission; must run in the click that asks for it (a user gesture). */
export function requestDownloadsPermission(): Promise<boolean> {
  return browser.permissions.request(PERMISSION);
}
