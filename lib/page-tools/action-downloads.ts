import { fileTypeFromBuffer } from 'file-type';
import type { JsonObject } from '../protocol/json-value';
import type { PageDownload } from './page-download';
import type { PageFence } from './page-fence';

/** At most this many downloads of one action are listed; the rest are counted. */
const MOST_LISTED = 10;

/** How a listed download's type was found: its bytes (a `data:` address), the server's MIME type, or neither. */
export type DownloadTypeSource = 'bytes' | 'mime' | 'unknown';

/**
 * The downloads one action started: those created while it ran whose address or referrer is of the agent's tab's
 * site (the downloads API names no tab), followed until they complete. The product never opens them.
 */
export class ActionDownloads {
  private readonly seen = new Map<number, PageDownload>();
  private readonly waiting = new Set<() => void>();

  constructor(private readonly origin: string) {}

  note(download: PageDownload, created: boolean): void {
    if (created ? !this.fromSite(download) : !this.seen.has(download.downloadId)) return;
    this.seen.set(download.downloadId, download);
    if (this.complete()) for (const done of this.waiting) done();
  }

  /** At least one download was started and none is still in progress. */
  complete(): boolean {
    return this.seen.size > 0 && [...this.seen.values()].every((download) => download.state !== 'in_progress');
  }

  /** Resolves true once `complete()`, false when `timeoutMs` passed first. */
  async waitComplete(timeoutMs: number, sleep: (ms: number) => Promise<void>): Promise<boolean> {
    if (this.complete()) return true;
    let done = () => undefined as void;
    const completed = new Promise<boolean>((resolve) => {
      done = () => resolve(true);
      this.waiting.add(done);
    });
    const result = await Promise.race([completed, sleep(timeoutMs).then(() => false)]);
    this.waiting.delete(done);
    return result;
  }

  /** The listing for the result: each download's name (page data, fenced), size, type, site and state. */
  async output(fence: PageFence): Promise<JsonObject[]> {
    const listed = [...this.seen.values()].slice(0, MOST_LISTED);
    return Promise.all(listed.map((download) => listing(download, fence)));
  }

  private fromSite(download: PageDownload): boolean {
    return [download.referrer, download.url, download.finalUrl].some((url) => siteOf(url) === this.origin);
  }
}

async function listing(download: PageDownload, fence: PageFence): Promise<JsonObject> {
  const type = await sniffedType(download);
  return {
    downloadId: download.downloadId,
    name: fence.wrap(baseName(download.filename)),
    size: download.bytes,
    type: type.mime,
    typeFrom: type.from,
    site: siteOf(download.referrer) ?? siteOf(download.url) ?? '',
    state: download.state,
    ...(download.error ? { error: download.error } : {}),
    opened: false,
  };
}

/** The bytes where the address carries them (`data:`), else the server's MIME type; never a second request. */
export async function sniffedType(download: PageDownload): Promise<{ mime: string; from: DownloadTypeSource }> {
  const bytes = dataUrlBytes(download.finalUrl ?? download.url);
  const sniffed = bytes ? await fileTypeFromBuffer(bytes).catch(() => undefined) : undefined;
  if (sniffed) return { mime: sniffed.mime, from: 'bytes' };
  if (download.mime && download.mime !== 'application/octet-stream') return { mime: download.mime, from: 'mime' };
  return { mime: download.mime || 'application/octet-stream', from: 'unknown' };
}

function dataUrlBytes(url: string): Uint8Array | undefined {
  const match = /^data:[^,]*;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  try {
    return Uint8Array.from(atob(match[1] ?? ''), (character) => character.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function baseName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

function siteOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const parsed = URL.parse(url);
  return parsed && parsed.origin !== 'null' ? parsed.origin : undefined;
}
