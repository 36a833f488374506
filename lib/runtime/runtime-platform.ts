import type { McpTransportFactory } from '../mcp/mcp-connection';
import type { BlobStore } from '../files/blob-store';
import type { WaitingNotice } from '../notify/waiting-notice';
import type { PagePlatform } from '../page-tools/page-platform';
import type { JsonObject } from '../protocol/json-value';
import type { KeyValueStore } from '../storage/key-value-store';
import type { EventStore } from '../session-log/event-store';
import type { SearchShardStore } from '../protocol/search-shard-row';

/** What the runtime needs of the browser; `entrypoints/background.ts` wires it, a test passes in-memory ones. */
export interface RuntimePlatform {
  store: EventStore;
  blobStore: BlobStore;
  /** Where the search index is kept; without one it lives in memory and is rebuilt from the log after a restart. */
  searchShards?: SearchShardStore;
  /** Extension storage: the settings, the user's targets, the targets' saved values. */
  storage: KeyValueStore;
  /** MCP glue: the transport to the user's MCP servers (the SDK's HTTP ones in the extension); none, no MCP tools. */
  mcpTransport?: McpTransportFactory;
  /** Writes several keys of that storage at once. */
  writeStorage(items: Record<string, JsonObject>): Promise<void>;
  /** The built-in catalog as the build wrote it, not yet validated. */
  fetchBuiltInCatalog(): Promise<unknown>;
  /** The address of a file of the extension. */
  extensionUrl(path: string): string;
  openStageTab(): Promise<void>;
  stageTabIsOpen(): Promise<boolean>;
  openJobHost(): Promise<void>;
  jobHostExists(): Promise<boolean>;
  pagePlatform: PagePlatform;
  notificationsPermitted(): Promise<boolean>;
  showNotification(notice: WaitingNotice): Promise<void>;
  /** Every state a target reports, after it is remembered (the toolbar popups show it). */
  onTargetState(targetId: string, state: JsonObject): void;
  now(): number;
  newId(): string;
  /** At least 16 random bytes as hex, fresh on every call. */
  randomHex(): string;
  sleep(ms: number): Promise<void>;
  setTimer(run: () => void, delayMs: number): void;
}
