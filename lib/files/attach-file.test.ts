import { describe, expect, it } from 'vitest';
import { pngHeader } from '../../tests/support/png-header';
import type { AgentEventDraft } from '../protocol/agent-event';
import { attachFile, type AttachDependencies, type PickedFile } from './attach-file';
import { MemoryBlobStore } from './memory-blob-store';
import { sha256Hex } from './sha256-hex';

function picked(name: string, bytes: Uint8Array, type = ''): PickedFile {
  return { name, size: bytes.byteLength, type, bytes: async () => bytes };
}

function dependencies(cancelled = new Set<string>()) {
  const recorded: AgentEventDraft[] = [];
  const store = new MemoryBlobStore();
  let next = 0;
  const deps: AttachDependencies = {
    sessionId: 's1',
    store,
    record: async (drafts) => void recorded.push(...drafts),
    isCancelled: (uploadId) => cancelled.has(uploadId),
    newId: () => `id-${next++}`,
    now: () => 1,
  };
  return { deps, recorded, store };
}

const states = (drafts: AgentEventDraft[]) =>
  drafts.map((draft) => (draft.type === 'upload/state' ? draft.data.state : draft.type));

describe('attachFile', () => {
  it('goes selected → hashing → ready and stores the bytes once under their sha256', async () => {
    const { deps, recorded, store } = dependencies();
    const bytes = new TextEncoder().encode('a,b\n1,2\n');
    await attachFile(picked('data.csv', bytes, 'text/csv'), deps);
    await attachFile(picked('copy.csv', bytes), deps);
    expect(states(recorded)).toEqual(['selected', 'hashing', 'ready', 'selected', 'hashing', 'ready']);
    const ready = recorded[2];
    const sha256 = await sha256Hex(bytes);
    expect(ready).toMatchObject({ data: { blob: { blobId: sha256, sha256, mime: 'text/csv', size: bytes.length } } });
    expect(store.blobs.size).toBe(1);
    expect(await store.referenceCount(sha256)).toBe(2);
  });

  it('rejects a huge PNG with the reason and stores nothing', async () => {
    const { deps, recorded, store } = dependencies();
    await attachFile(picked('huge.png', pngHeader(20_000, 20_000), 'image/png'), deps);
    expect(states(recorded)).toEqual(['selected', 'hashing', 'rejected']);
    expect(recorded[2]).toMatchObject({ data: { rejection: 'too-many-pixels' } });
    expect(store.blobs.size).toBe(0);
  });

  it('rejects a file over the size limit before reading it', async () => {
    const { deps, recorded } = dependencies();
    const file: PickedFile = {
      name: 'big.png',
      size: 50 * 1024 * 1024,
      type: 'image/png',
      bytes: () => Promise.reject(new Error('read')),
    };
    await attachFile(file, deps);
    expect(states(recorded)).toEqual(['selected', 'rejected']);
  });

  it('writes nothing more once the user removed the file', async () => {
    const cancelled = new Set(['id-0']);
    const { deps, recorded, store } = dependencies(cancelled);
    await attachFile(picked('a.png', pngHeader(10, 10)), deps);
    expect(states(recorded)).toEqual(['selected', 'hashing']);
    expect(store.blobs.size).toBe(0);
  });
});
