import browser, { type Downloads } from 'webextension-polyfill';
import type { PageDownload, PageDownloads } from '@/lib/page-tools/page-download';
import { errorText } from '@/lib/protocol/error-text';
import type { AppDownloadFile } from '@/lib/stage/app-download-files';

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

/** What saving files came to: all saved, or why not. */
export type FilesSaved = { ok: true } | { ok: false; error: string };

/**
 * Saves files through the browser's downloads (the optional permission, which the Allow click on the download's
 * card asks for), each in the downloads folder under its name (a taken name gets a number), one after the other,
 * until each is complete. Nothing here opens a saved file.
 */
export async function saveFiles(files: AppDownloadFile[]): Promise<FilesSaved> {
  if (!(await browser.permissions.contains(PERMISSION)))
    return { ok: false, error: 'Splitbrain may not save files: the downloads permission was not granted.' };
  for (const file of files) {
    const saved = await saveFile(file);
    if (!saved.ok) return saved;
  }
  return { ok: true };
}

async function saveFile(file: AppDownloadFile): Promise<FilesSaved> {
  const url = URL.createObjectURL(new Blob([file.bytes], { type: file.mimeType }));
  try {
    const downloadId = await browser.downloads.download({
      url,
      filename: file.name,
      conflictAction: 'uniquify',
      saveAs: false,
    });
    const end = await downloadEnd(downloadId);
    return end === 'complete' ? { ok: true } : { ok: false, error: `${file.name} was not saved (${end}).` };
  } catch (error) {
    return { ok: false, error: `${file.name} was not saved: ${errorText(error)}` };
  } finally {
    // Only now: the browser reads the blob while the download runs.
    URL.revokeObjectURL(url);
  }
}

/** How a download ended: `complete`, or the browser's reason it was interrupted. */
function downloadEnd(downloadId: number): Promise<string> {
  return new Promise((resolve) => {
    const end = (state: string, error: string | undefined) => {
      browser.downloads.onChanged.removeListener(changed);
      resolve(state === 'complete' ? 'complete' : (error ?? 'interrupted'));
    };
    const changed = (delta: Downloads.OnChangedDownloadDeltaType) => {
      if (delta.id === downloadId && delta.state && delta.state.current !== 'in_progress')
        end(delta.state.current ?? '', delta.error?.current);
    };
    browser.downloads.onChanged.addListener(changed);
    // It may have ended before the listener was added.
    void browser.downloads.search({ id: downloadId }).then(([item]) => {
      if (item && item.state !== 'in_progress') end(item.state, item.error ? String(item.error) : undefined);
    });
  });
}
