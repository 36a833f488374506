import type { BlobRef } from '../protocol/blob-ref';
import type { ScreenshotMark } from '../page-observation/set-of-marks';
import type { PagePlatform } from './page-platform';
import type { SiteMode } from '../settings/site-modes-store';

export interface PageLinkDependencies {
  platform: PagePlatform;
  siteMode(origin: string): Promise<SiteMode>;
  /** Stores a screenshot as a blob of the session, owned by the call; undefined when it was refused. */
  storeScreenshot(bytes: Uint8Array, sessionId: string, ownerId: string): Promise<BlobRef | undefined>;
  now(): number;
  newId(): string;
  /** At least 16 random bytes as hex, fresh on every call. */
  randomHex(): string;
  sleep(ms: number): Promise<void>;
  /** Draws Set-of-Marks on a captured PNG (default: lib/page-observation/draw-marks.ts). */
  drawMarks?(png: Uint8Array, marks: ScreenshotMark[], viewportWidth: number): Promise<Uint8Array>;
  /** The conversation's title, which names its tab group; absent: the group is named "Splitbrain". */
  sessionTitle?(sessionId: string): Promise<string>;
  /** The newest file of that name (or sha256) the user attached in this conversation; no other conversation's. */
  attachedFile?(sessionId: string, file: string): Promise<BlobRef | undefined>;
  readBlob?(blobId: string): Promise<Uint8Array | undefined>;
}
