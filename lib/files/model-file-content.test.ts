import { describe, expect, it } from 'vitest';
import type { BlobRef } from '../protocol/blob-ref';
import { ENDPOINT_FILE_LIMITS, type FileEndpointKind } from './file-limits';
import {
  attachmentRefusal,
  endpointImageRefusal,
  resolveBlobs,
  toolResultContent,
  userMessageContent,
} from './model-file-content';

const ref = (blobId: string, mime: string, name: string): BlobRef => ({
  blobId: blobId.repeat(64).slice(0, 64),
  sha256: blobId.repeat(64).slice(0, 64),
  mime,
  size: 3,
  name,
});
const image = ref('a', 'image/png', 'shot.png');
const pdf = ref('b', 'application/pdf', 'report.pdf');
const csv = ref('c', 'text/csv', 'data.csv');
const gone = ref('d', 'image/png', 'gone.png');
const stored = new Map([
  [image.blobId, new Uint8Array([1, 2, 3])],
  [pdf.blobId, new Uint8Array([4, 5, 6])],
  [csv.blobId, new TextEncoder().encode('a,b')],
]);

async function options(kind: FileEndpointKind) {
  const limits = ENDPOINT_FILE_LIMITS[kind];
  const resolved = await resolveBlobs([image, pdf, csv, gone], { read: async (id) => stored.get(id) }, limits);
  return { kind, limits, resolved };
}

describe('model file content', () => {
  it('sends images and PDFs as file parts, text as text with its name, and says when a file is gone', async () => {
    const parts = userMessageContent('Look', [image, pdf, csv, gone], await options('anthropic'));
    expect(parts.map((part) => (part.type === 'file' ? part.mediaType : part.text))).toEqual([
      'Look',
      'image/png',
      'application/pdf',
      '<file name="data.csv" type="text/csv">\na,b\n</file>',
      '[Attached file “gone.png” is no longer available; it was not sent.]',
    ]);
  });

  it('refuses a PDF for an OpenAI-compatible server before sending', () => {
    expect(attachmentRefusal([image, pdf], 'openai-compatible', ENDPOINT_FILE_LIMITS['openai-compatible'])).toContain(
      'does not take PDF files',
    );
    expect(attachmentRefusal([image, pdf], 'anthropic', ENDPOINT_FILE_LIMITS.anthropic)).toBeUndefined();
  });

  it('refuses images for an endpoint that takes none, and says nothing of them where all endpoints take them', () => {
    const textOnly = { ...ENDPOINT_FILE_LIMITS['openai-compatible'], images: false };
    expect(endpointImageRefusal('openai-compatible', textOnly)).toBe(
      'This endpoint (openai-compatible) does not take images.',
    );
    expect(attachmentRefusal([csv, image], 'openai-compatible', textOnly)).toBe(
      'This endpoint (openai-compatible) does not take images. Remove “shot.png” or switch to an endpoint that does.',
    );
    expect(attachmentRefusal([csv], 'openai-compatible', textOnly)).toBeUndefined();
    for (const [kind, limits] of Object.entries(ENDPOINT_FILE_LIMITS))
      expect(endpointImageRefusal(kind as FileEndpointKind, limits)).toBeUndefined();
  });

  it('puts a tool result image inside the result where the provider takes it, else in a user message after', async () => {
    const output = { ok: true, images: [image] };
    const inResult = toolResultContent(
      { toolCallId: 't1', toolName: 'screenshot' },
      output,
      await options('anthropic'),
    );
    expect(inResult.followUp).toBeUndefined();
    expect(inResult.part.output).toMatchObject({
      type: 'content',
      value: [{ type: 'text' }, { type: 'image-data', data: 'AQID', mediaType: 'image/png' }],
    });
    const after = toolResultContent({ toolCallId: 't1', toolName: 'screenshot' }, output, await options('openai-chat'));
    expect(after.part.output).toMatchObject({ type: 'text' });
    expect(JSON.stringify(after.part.output)).toContain('in the next user message');
    expect(after.followUp).toMatchObject({ role: 'user', content: [{ type: 'text' }, { type: 'file' }] });
  });
});
