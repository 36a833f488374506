import { describe, expect, it } from 'vitest';
import { mcpResourceAttachment } from '../protocol/mcp-resource';
import { mcpResourceFile } from './mcp-resource-file';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function attachedParts(result: unknown, listed = { uri: 'note://first', name: 'first-note' }) {
  const attachment = mcpResourceAttachment(result, listed);
  if (!attachment.ok) throw new Error(attachment.error);
  return attachment.parts;
}

function attached(result: unknown, listed = { uri: 'note://first', name: 'first-note' }) {
  const [part, ...others] = attachedParts(result, listed);
  expect(others).toEqual([]);
  return part!;
}

describe('MCP resources as files', () => {
  it('makes a text resource a text file named after the resource, with an extension from its type', async () => {
    const file = mcpResourceFile(
      attached({ contents: [{ uri: 'note://first', mimeType: 'text/plain', text: 'buy milk' }] }),
      1,
    );
    expect(file.name).toBe('first-note.txt');
    expect(file.type).toBe('text/plain');
    expect(await file.text()).toBe('buy milk');
  });

  it('decodes a blob resource to its bytes', async () => {
    const file = mcpResourceFile(
      attached(
        { contents: [{ uri: 'image://dot', mimeType: 'image/png', blob: PNG_BASE64 }] },
        { uri: 'image://dot', name: 'dot' },
      ),
      1,
    );
    expect(file.name).toBe('dot.png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(Buffer.from(PNG_BASE64, 'base64')));
  });

  it('keeps a name that has an extension, and cleans path characters out of it', () => {
    expect(attached({ contents: [{ uri: 'x', text: 'a' }] }, { uri: 'x', name: 'notes/today.md' }).name).toBe(
      'notes-today.md',
    );
  });

  it('attaches every part of a resource of several, each named after its own URI or its place', async () => {
    const parts = attachedParts(
      {
        contents: [
          { uri: 'note://first', mimeType: 'text/markdown', text: '# Notes' },
          { uri: 'note://first/attachments/dot.png', mimeType: 'image/png', blob: PNG_BASE64 },
          { uri: 'note://first', text: 'more' },
        ],
      },
      { uri: 'note://first', name: 'first-note' },
    );
    const files = parts.map((part) => mcpResourceFile(part, 1));
    expect(files.map((file) => [file.name, file.type])).toEqual([
      ['first-note (part 1 of 3).md', 'text/markdown'],
      ['dot.png', 'image/png'],
      ['first-note (part 3 of 3).txt', 'text/plain'],
    ]);
    expect(await files[2]!.text()).toBe('more');
  });

  it('refuses what is not a resources/read result, an empty one, one too large, and one of too many parts', () => {
    const many = Array.from({ length: 11 }, (_, index) => ({ uri: `x/${index}`, text: 'a' }));
    expect(mcpResourceAttachment({ contents: many }, { uri: 'x', name: 'x' })).toEqual({
      ok: false,
      error: 'x has 11 parts; a message takes at most 10 files.',
    });
    expect(
      mcpResourceAttachment(
        {
          contents: [
            { uri: 'x', text: 'a'.repeat(12 * 1024 * 1024) },
            { uri: 'y', text: 'a'.repeat(12 * 1024 * 1024) },
          ],
        },
        { uri: 'x', name: 'x' },
      ),
    ).toEqual({ ok: false, error: 'x is larger than 20 MB.' });
    expect(mcpResourceAttachment({ contents: 'no' }, { uri: 'x', name: 'x' })).toEqual({
      ok: false,
      error: 'The server sent a resource that is not a resources/read result.',
    });
    expect(mcpResourceAttachment({ contents: [] }, { uri: 'x', name: 'x' })).toEqual({
      ok: false,
      error: 'x has no content.',
    });
    expect(
      mcpResourceAttachment({ contents: [{ uri: 'x', text: 'a'.repeat(21 * 1024 * 1024) }] }, { uri: 'x', name: 'x' }),
    ).toEqual({
      ok: false,
      error: 'x is larger than 20 MB.',
    });
  });
});
