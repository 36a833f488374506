/**
 * A download as the browser reports it (`PagePlatform.downloads`), whole: `ActionDownloads` keeps those the
 * agent's action started and lists them. `bytes` is the file's size once known (-1 while it is not).
 */
export interface PageDownload {
  downloadId: number;
  url: string;
  finalUrl?: string;
  referrer?: string;
  /** The path it is saved to (or will be), as the browser names it. */
  filename: string;
  /** The MIME type the server sent. */
  mime: string;
  bytes: number;
  state: 'in_progress' | 'interrupted' | 'complete';
  error?: string;
  /** Whether the file is still on disk. */
  exists: boolean;
}

/** What the page tools need of the browser's downloads; absent where the browser has no downloads API. */
export interface PageDownloads {
  /** Whether the extension holds the optional `downloads` permission now. */
  permitted(): Promise<boolean>;
  /** Reports each download created (`created`) or changed until the returned stop runs. */
  watch(report: (download: PageDownload, created: boolean) => void): () => void;
  /** Removes the file from disk and the download from the browser's list. */
  remove(downloadId: number): Promise<void>;
}
