import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { modelHistory } from '../agent/model-history';
import { blobRefOf } from '../files/store-bytes';
import type { AgentEventDraft } from '../protocol/agent-event';
import { replayLog } from '../state/reduce-events';
import { DexieBlobStore } from '../storage/dexie-blob-store';
import { DexieEventStore, openSplitbrainDatabase } from '../storage/dexie-event-store';
import { testRuntime } from '../../tests/support/test-runtime';

async function setup() {
  const database = openSplitbrainDatabase('fork', { indexedDB: new IDBFactory(), IDBKeyRange });
  const blobs = new DexieBlobStore(database);
  const runtime = testRuntime({ store: new DexieEventStore(database), blobStore: blobs, newId: () => 'fork-1' });
  const bytes = new TextEncoder().encode('the attached notes');
  const ref = await blobRefOf(bytes, 'notes.txt', { mime: 'text/plain' });
  await blobs.put({ bytes, ref, sessionId: 'original', ownerId: 'upload-1' });
  const attachment = { uploadId: 'upload-1', partId: 'part-1', blob: ref };
  const turn = (turnId: string, text: string, data: object = {}): AgentEventDraft[] => [
    {
      type: 'turn/started',
      sessionId: 'original',
      turnId,
      time: 2,
      data: { userItemId: `user-${turnId}`, text, ...data },
    },
    { type: 'turn/completed', sessionId: 'original', turnId, time: 3, data: { reason: 'stop' } },
  ];
  await runtime.append('original', [
    { type: 'session/created', sessionId: 'original', time: 1, data: { title: 'Notes' } },
    ...turn('a', 'Read my notes', { parentTurnId: null, attachments: [attachment] }),
    ...turn('b', 'Summarise them', { parentTurnId: 'a' }),
    ...turn('c', 'Shorter', { parentTurnId: 'a' }),
    { type: 'branch/switched', sessionId: 'original', turnId: 'b', time: 4, data: {} },
  ]);
  return { runtime, blobs, ref };
}

describe('Runtime.forkSession', () => {
  it('starts a new conversation with the branch up to a turn, which the model is sent alike', async () => {
    const { runtime } = await setup();
    expect(await runtime.forkSession('original', 'c')).toBe('fork-1');
    const original = replayLog('original', await runtime.read('original', 0));
    const fork = replayLog('fork-1', await runtime.read('fork-1', 0));
    expect(fork.turnOrder).toEqual(['a', 'c']);
    expect(fork.branches.parents).toEqual({ a: null, c: 'a' });
    expect(fork.title).toBe('Notes');
    const originalAtC = { ...original, branches: { ...original.branches, leaf: 'c' } };
    expect(modelHistory(fork)).toEqual(modelHistory(originalAtC));
    // The original is unchanged: still its three turns and the branch it showed.
    expect(original.turnOrder).toEqual(['a', 'b', 'c']);
    expect(original.branches.leaf).toBe('b');
    const [created] = await runtime.read('fork-1', 0);
    expect(created).toMatchObject({
      type: 'session/created',
      data: { forkOf: { sessionId: 'original', turnId: 'c' } },
    });
  });

  it("keeps the fork's blobs, shared by reference, after the original is deleted", async () => {
    const { runtime, blobs, ref } = await setup();
    await runtime.forkSession('original', 'b');
    expect(await blobs.referenceCount(ref.blobId)).toBe(2);
    await runtime.deleteSession('original');
    expect(await blobs.read(ref.blobId)).toEqual(new TextEncoder().encode('the attached notes'));
    await runtime.deleteSession('fork-1');
    expect(await blobs.read(ref.blobId)).toBeUndefined();
  });

  it('refuses a turn the conversation does not have', async () => {
    const { runtime } = await setup();
    await expect(runtime.forkSession('original', 'nowhere')).rejects.toThrow(/no turn nowhere/);
    expect(await runtime.read('fork-1', 0)).toEqual([]);
  });
});
