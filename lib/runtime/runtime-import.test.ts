import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { blobRefOf } from '../files/store-bytes';
import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import { readSessionArchive } from '../panel/read-session-archive';
import { sessionArchive, sessionBlobIds, sessionExport } from '../panel/session-export';
import { stageSessionImport } from '../panel/stage-session-import';
import { DexieBlobStore } from '../storage/dexie-blob-store';
import { DexieEventStore, openSplitbrainDatabase } from '../storage/dexie-event-store';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
import { patternPng } from '../../tests/support/test-files';

const notes = new TextEncoder().encode('the attached notes');

function stores(name: string) {
  const database = openSplitbrainDatabase(name, { indexedDB: new IDBFactory(), IDBKeyRange });
  const store = new DexieEventStore(database);
  return { store, blobs: new DexieBlobStore(database) };
}

/** A conversation with an attached file and a tool call, in a browser of its own. */
async function original() {
  const { store, blobs } = stores('original');
  const runtime = testRuntime({ store, blobStore: blobs });
  const ref = await blobRefOf(notes, 'notes.txt', { mime: 'text/plain' });
  await blobs.put({ bytes: notes, ref, sessionId: 'chat', ownerId: 'upload-1' });
  const drafts: AgentEventDraft[] = [
    { type: 'session/created', sessionId: 'chat', time: 1, data: { title: 'Notes' } },
    {
      type: 'turn/started',
      sessionId: 'chat',
      turnId: 't1',
      time: 2,
      data: {
        userItemId: 'u1',
        text: 'Read my notes',
        parentTurnId: null,
        attachments: [{ uploadId: 'upload-1', partId: 'part-1', blob: ref }],
      },
    },
    {
      type: 'step/started',
      sessionId: 'chat',
      turnId: 't1',
      stepId: 's1',
      attemptId: 'a1',
      time: 3,
      data: { index: 0 },
    },
    {
      type: 'assistant/completed',
      sessionId: 'chat',
      turnId: 't1',
      stepId: 's1',
      attemptId: 'a1',
      itemId: 'i1',
      time: 4,
      data: { text: 'They say hello.' },
    },
    {
      type: 'step/completed',
      sessionId: 'chat',
      turnId: 't1',
      stepId: 's1',
      attemptId: 'a1',
      time: 5,
      data: { finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 4 } },
    },
    { type: 'turn/completed', sessionId: 'chat', turnId: 't1', time: 6, data: { reason: 'stop' } },
  ];
  await runtime.append('chat', drafts);
  return { runtime, blobs, ref };
}

/** What the panel's Export button writes for the conversation. */
async function exportOf(runtime: ReturnType<typeof testRuntime>, blobs: DexieBlobStore, sessionId = 'chat') {
  const events = await runtime.read(sessionId, 0);
  const files = new Map<string, Uint8Array>();
  for (const blobId of sessionBlobIds(events)) files.set(blobId, (await blobs.read(blobId))!);
  const archive = sessionArchive(sessionExport({ sessionId, title: 'Notes' }, events, [], new Date(0)), files);
  if (!archive.ok) throw new Error(archive.error);
  return { events, archive: archive.bytes };
}

/** What the panel's Import button does with a file, into another browser's stores. */
async function importInto(
  target: ReturnType<typeof stores>,
  runtime: ReturnType<typeof testRuntime>,
  file: Uint8Array,
) {
  const reading = await readSessionArchive(file);
  if (!reading.ok) throw new Error(reading.error);
  const staged = await stageSessionImport(reading, target.blobs, `import-staging-${crypto.randomUUID()}`);
  return { result: await runtime.importSession(staged.stagingId, staged.documentBlobId), staged };
}

const withoutSession = (events: readonly AgentEvent[]) => events.map(({ sessionId: _sessionId, ...rest }) => rest);

describe('Runtime.importSession', () => {
  it('imports an export as the same conversation: the same events, ids and byte-equal files', async () => {
    const source = await original();
    const { events, archive } = await exportOf(source.runtime, source.blobs);
    const target = stores('target');
    const runtime = testRuntime({ ...target, blobStore: target.blobs });
    const { result, staged } = await importInto(target, runtime, archive);
    expect(result).toEqual({ sessionId: 'chat', remapped: false, missingFiles: 0 });
    expect(await runtime.read('chat', 0)).toEqual(events);
    expect(await target.blobs.read(source.ref.blobId)).toEqual(notes);
    // The staging references are gone; the imported conversation holds its own.
    expect(await target.blobs.referenceCount(source.ref.blobId)).toBe(1);
    expect(await target.blobs.read(staged.documentBlobId)).toBeUndefined();
    const [record] = await runtime.listSessions();
    expect(record).toMatchObject({ sessionId: 'chat', title: 'Notes', lastSeq: events.length });
    // Exporting the import gives the same conversation.json and files.
    expect(unzipSync((await exportOf(runtime, target.blobs)).archive)).toEqual(unzipSync(archive));
  });

  it('imports the same file twice as a copy with a new session id, events otherwise equal', async () => {
    const source = await original();
    const { events, archive } = await exportOf(source.runtime, source.blobs);
    const target = stores('twice');
    const runtime = testRuntime({ ...target, blobStore: target.blobs, newId: countingIds('copy-') });
    await importInto(target, runtime, archive);
    const { result } = await importInto(target, runtime, archive);
    expect(result).toEqual({ sessionId: 'copy-1', remapped: true, missingFiles: 0 });
    const copy = await runtime.read('copy-1', 0);
    expect(copy.every((event) => event.sessionId === 'copy-1')).toBe(true);
    expect(withoutSession(copy)).toEqual(withoutSession(events));
    // Each copy holds the file: deleting one keeps it for the other.
    await runtime.deleteSession('chat');
    expect(await target.blobs.read(source.ref.blobId)).toEqual(notes);
    await runtime.deleteSession('copy-1');
    expect(await target.blobs.read(source.ref.blobId)).toBeUndefined();
  });

  it('carries the images an MCP App gave: its message’s, shown on the card, and its context’s, byte-equal', async () => {
    const source = await original();
    const shown = new Uint8Array(patternPng(5, 4, 1));
    const told = new Uint8Array(patternPng(3, 2, 2));
    const shownRef = await blobRefOf(shown, 'showCounter-image-1.png', { mime: 'image/png', width: 5, height: 4 });
    const toldRef = await blobRefOf(told, 'showCounter-image-1.png', { mime: 'image/png', width: 3, height: 2 });
    await source.blobs.put({ bytes: shown, ref: shownRef, sessionId: 'chat', ownerId: 'message-1' });
    await source.blobs.put({ bytes: told, ref: toldRef, sessionId: 'chat', ownerId: 'mcp-app-1' });
    await source.runtime.append('chat', [
      {
        type: 'mcp-app/context',
        sessionId: 'chat',
        contextId: 'context-1',
        time: 7,
        data: {
          targetId: 'mcp-app-1',
          app: 'showCounter',
          serverName: 'Apps',
          text: 'The chart.',
          images: [toldRef],
          marker: 'ab'.repeat(16),
        },
      },
      {
        type: 'approval/requested',
        sessionId: 'chat',
        turnId: 't1',
        requestId: 'request-1',
        toolCallId: 'call-1',
        time: 8,
        data: {
          argumentsHash: 'f'.repeat(64),
          summary: 'Add the MCP App “showCounter”’s message to this conversation: 1 image',
          expiresAt: 60_000,
          toolName: 'app_send_message',
          images: [shownRef],
        },
      },
    ]);
    const { events, archive } = await exportOf(source.runtime, source.blobs);
    expect(Object.keys(unzipSync(archive)).sort()).toEqual(
      ['conversation.json', ...[source.ref, shownRef, toldRef].map((ref) => `blobs/${ref.blobId}`)].sort(),
    );
    const target = stores('app-images');
    const runtime = testRuntime({ ...target, blobStore: target.blobs });
    const { result } = await importInto(target, runtime, archive);
    expect(result).toEqual({ sessionId: 'chat', remapped: false, missingFiles: 0 });
    expect(await runtime.read('chat', 0)).toEqual(events);
    expect(await target.blobs.read(shownRef.blobId)).toEqual(shown);
    expect(await target.blobs.read(toldRef.blobId)).toEqual(told);
    await runtime.deleteSession('chat');
    expect(await target.blobs.read(toldRef.blobId)).toBeUndefined();
  });

  it('imports a JSON-only export, counting the files it lacks', async () => {
    const source = await original();
    const events = await source.runtime.read('chat', 0);
    const v1 = { ...sessionExport({ sessionId: 'chat', title: 'Notes' }, events, [], new Date(0)), version: 1 };
    const target = stores('json-only');
    const runtime = testRuntime({ ...target, blobStore: target.blobs });
    const { result } = await importInto(target, runtime, new TextEncoder().encode(JSON.stringify(v1)));
    expect(result).toEqual({ sessionId: 'chat', remapped: false, missingFiles: 1 });
    expect(await runtime.read('chat', 0)).toEqual(events);
  });

  it('writes nothing, and keeps no staged file, when the log write fails', async () => {
    const source = await original();
    const { archive } = await exportOf(source.runtime, source.blobs);
    const target = stores('failing');
    target.store.append = () => Promise.reject(new Error('QuotaExceededError: the write was refused'));
    const runtime = testRuntime({ ...target, blobStore: target.blobs });
    await expect(importInto(target, runtime, archive)).rejects.toThrow(/QuotaExceededError/);
    expect(await runtime.listSessions()).toEqual([]);
    expect(await target.blobs.read(source.ref.blobId)).toBeUndefined();
    expect(await target.blobs.referenceCount(source.ref.blobId)).toBe(0);
  });

  it('refuses a staged document that does not check, or events out of order, writing nothing', async () => {
    const target = stores('refused');
    const runtime = testRuntime({ ...target, blobStore: target.blobs });
    const stage = async (document: unknown) => {
      const bytes = new TextEncoder().encode(JSON.stringify(document));
      const ref = await blobRefOf(bytes, 'conversation.json', { mime: 'application/json' });
      await target.blobs.put({ bytes, ref, sessionId: 'staging', ownerId: 'import' });
      return ref.blobId;
    };
    await expect(runtime.importSession('staging', await stage({ format: 'other' }))).rejects.toThrow(
      /Not a Splitbrain conversation export/,
    );
    const source = await original();
    const events = await source.runtime.read('chat', 0);
    const shuffled = sessionExport({ sessionId: 'chat', title: 'Notes' }, [...events].reverse(), [], new Date(0));
    await expect(runtime.importSession('staging', await stage(shuffled))).rejects.toThrow(/out of order/);
    const lacking = sessionExport({ sessionId: 'chat', title: 'Notes' }, events, [], new Date(0));
    await expect(runtime.importSession('staging', await stage(lacking))).rejects.toThrow(/was not imported with it/);
    expect(await runtime.listSessions()).toEqual([]);
    await expect(runtime.importSession('staging', 'f'.repeat(64))).rejects.toThrow(/was not staged/);
  });
});
