import { MemoryBlobStore } from '@/lib/files/memory-blob-store';
import type { BlobStore } from '@/lib/files/blob-store';
import type { EventStore } from '@/lib/session-log/event-store';
import { MemoryEventStore } from '@/lib/session-log/memory-event-store';
import { DexieBlobStore } from '@/lib/storage/dexie-blob-store';
import { DexieEventStore, openSplitbrainDatabase } from '@/lib/storage/dexie-event-store';
import { DexieSearchShards } from '@/lib/storage/dexie-search-shards';
import type { SearchShardStore } from '@/lib/protocol/search-shard-row';

/** The event log, the blob store and the search index in IndexedDB (in memory for the benchmark's second build). */
export function openEventStores(): { store: EventStore; blobStore: BlobStore; searchShards?: SearchShardStore } {
  // Only the benchmark's second build keeps the log in memory, to measure what the durable writes cost a tool call.
  const inMemory = import.meta.env.WXT_MEMORY_EVENT_LOG === '1';
  return {
    store: inMemory ? new MemoryEventStore() : new DexieEventStore(),
    blobStore: inMemory ? new MemoryBlobStore() : new DexieBlobStore(openSplitbrainDatabase()),
    ...(inMemory ? {} : { searchShards: new DexieSearchShards() }),
  };
}
