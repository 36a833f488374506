import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { blobRefOf } from '../files/store-bytes';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import type { BlobRef } from '../protocol/blob-ref';
import { readSessionArchive } from './read-session-archive';
import { SESSION_ARCHIVE_LIMITS } from './session-archive-limits';
import { sessionArchive, sessionExport, type SessionExport } from './session-export';

const notes = new TextEncoder().encode('the attached notes');

function conversation(ref: BlobRef): AgentEvent[] {
  const envelope = { schemaVersion: AGENT_EVENT_SCHEMA_VERSION, sessionId: 's', durable: true } as const;
  return [
    { ...envelope, type: 'session/created', seq: 1, time: 1, data: { title: 'Notes' } },
    {
      ...envelope,
      type: 'turn/started',
      turnId: 't',
      seq: 2,
      time: 2,
      data: {
        userItemId: 'u',
        text: 'Read my notes',
        parentTurnId: null,
        attachments: [{ uploadId: 'up', partId: 'p', blob: ref }],
      },
    },
    { ...envelope, type: 'turn/completed', turnId: 't', seq: 3, time: 3, data: { reason: 'stop' } },
  ];
}

async function exported() {
  const ref = await blobRefOf(notes, 'notes.txt', { mime: 'text/plain' });
  const document = sessionExport({ sessionId: 's', title: 'Notes' }, conversation(ref), [], new Date(0));
  return { ref, document };
}

function archive(document: unknown, entries: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({ 'conversation.json': strToU8(JSON.stringify(document)), ...entries });
}

describe('readSessionArchive', () => {
  it('reads back what sessionArchive wrote: the same document and byte-equal files', async () => {
    const { ref, document } = await exported();
    const written = sessionArchive(document, new Map([[ref.blobId, notes]]));
    if (!written.ok) throw new Error(written.error);
    const reading = await readSessionArchive(written.bytes);
    if (!reading.ok) throw new Error(reading.error);
    expect(reading.document).toEqual(document);
    expect(reading.files).toEqual([{ blobId: ref.blobId, mime: 'text/plain', bytes: notes }]);
    expect(reading.missingBlobIds).toEqual([]);
  });

  it('reads a JSON-only export of version 1, its files named as missing', async () => {
    const { ref, document } = await exported();
    const v1 = { ...document, version: 1 };
    const reading = await readSessionArchive(strToU8(JSON.stringify(v1)));
    if (!reading.ok) throw new Error(reading.error);
    expect(reading.document.events).toEqual(document.events);
    expect(reading.files).toEqual([]);
    expect(reading.missingBlobIds).toEqual([ref.blobId]);
  });

  it('refuses the conversation.json of a zip export alone when it names files', async () => {
    const { document } = await exported();
    expect(await readSessionArchive(strToU8(JSON.stringify(document)))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/import the \.zip file itself/),
    });
  });

  it('imports without a file the export says was already missing', async () => {
    const { ref, document } = await exported();
    const reading = await readSessionArchive(archive({ ...document, missingBlobIds: [ref.blobId] }));
    expect(reading).toMatchObject({ ok: true, files: [], missingBlobIds: [ref.blobId] });
  });

  it('refuses a file that is neither zip nor JSON', async () => {
    expect(await readSessionArchive(strToU8('hello, world'))).toEqual({
      ok: false,
      error: 'The file is neither a zip archive nor JSON.',
    });
    expect(await readSessionArchive(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toEqual({
      ok: false,
      error: 'The file is not a readable zip archive.',
    });
  });

  it('refuses another format or version, and a zip without conversation.json', async () => {
    const { document } = await exported();
    expect(await readSessionArchive(archive({ ...document, format: 'chat-app' }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Not a Splitbrain conversation export/),
    });
    expect(await readSessionArchive(archive({ ...document, version: 7 }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/\(version\)/),
    });
    expect(await readSessionArchive(zipSync({ 'notes.txt': notes }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no conversation\.json/),
    });
  });

  it('refuses an event that fails the schema', async () => {
    const { ref, document } = await exported();
    const broken = structuredClone(document) as SessionExport;
    (broken.events[2]!.data as { reason: string }).reason = 'bored';
    expect(await readSessionArchive(archive(broken, { [`blobs/${ref.blobId}`]: notes }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Event 2 of the conversation is unreadable/),
    });
  });

  it('refuses a BlobRef whose file the archive lacks, and a file that does not match its hash', async () => {
    const { ref, document } = await exported();
    expect(await readSessionArchive(archive(document))).toMatchObject({
      ok: false,
      error: `The archive lacks the file blobs/${ref.blobId} that the conversation names.`,
    });
    expect(await readSessionArchive(archive(document, { [`blobs/${ref.blobId}`]: strToU8('other') }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not match its hash/),
    });
  });

  it('refuses a file over the size cap before reading it', async () => {
    const tooLarge = new Uint8Array(SESSION_ARCHIVE_LIMITS.maxFileBytes + 1);
    expect(await readSessionArchive(tooLarge)).toEqual({
      ok: false,
      error: 'The file is 200.0 MB; an import takes at most 200.0 MB.',
    });
  });

  /** The zip with the uncompressed size its central directory declares for `name` set to `size`. */
  function declaring(zipped: Uint8Array, name: string, size: number): Uint8Array {
    const bytes = zipped.slice();
    const view = new DataView(bytes.buffer);
    for (let offset = 0; offset < bytes.length - 46; offset++) {
      if (view.getUint32(offset, true) !== 0x02014b50) continue;
      const nameLength = view.getUint16(offset + 28, true);
      if (new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength)) === name)
        view.setUint32(offset + 24, size, true);
    }
    return bytes;
  }

  it('refuses a zip bomb from its declared sizes, before inflating anything', async () => {
    const { ref, document } = await exported();
    const entry = `blobs/${ref.blobId}`;
    const zipped = zipSync({
      'conversation.json': strToU8(JSON.stringify(document)),
      [entry]: [new Uint8Array(1024 * 1024), { level: 9 }],
    });
    expect(await readSessionArchive(declaring(zipped, entry, 0xf0000000))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The archive unpacks to more than an import takes \(250\.0 MB, 5000 files\)/),
    });
  });

  it('inflates no entry past its declared size: one that lies small is cut short and fails its hash', async () => {
    const { ref, document } = await exported();
    const entry = `blobs/${ref.blobId}`;
    const zipped = zipSync({
      'conversation.json': strToU8(JSON.stringify(document)),
      [entry]: [new Uint8Array(2 * 1024 * 1024), { level: 9 }],
    });
    expect(await readSessionArchive(declaring(zipped, entry, 16))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not match its hash/),
    });
  });

  it('ignores entries an export never has, whatever their names', async () => {
    const { ref, document } = await exported();
    const reading = await readSessionArchive(
      archive(document, {
        [`blobs/${ref.blobId}`]: notes,
        __proto__: strToU8('{"polluted":true}'),
        '../../escape': strToU8('x'),
        [`blobs/${ref.blobId}/../../conversation.json`]: strToU8('{}'),
      }),
    );
    expect(reading).toMatchObject({ ok: true, files: [{ blobId: ref.blobId }] });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
