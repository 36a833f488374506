import { describe, expect, it } from 'vitest';
import type { McpAppDownloadContent } from '../protocol/mcp-app-download';
import type { McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { appDownloadFiles, describedFiles } from './app-download-files';

const MB = 1024 * 1024;

function reader(answers: Record<string, McpAppToolAnswer>) {
  const reads: string[] = [];
  const read = async (uri: string): Promise<McpAppToolAnswer> => {
    reads.push(uri);
    return answers[uri] ?? { error: `Apps: Resource ${uri} not found` };
  };
  return { read, reads };
}

function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

describe('appDownloadFiles', () => {
  it('takes embedded text and base64 as given, named after their URI, typed by their MIME or a default', async () => {
    const { read, reads } = reader({});
    const gathered = await appDownloadFiles(
      [
        { type: 'resource', resource: { uri: 'file:///export.json', mimeType: 'application/json', text: '{"a":1}' } },
        { type: 'resource', resource: { uri: 'file:///dot', mimeType: 'image/png', blob: 'iVBORw==' } },
        { type: 'resource', resource: { uri: 'file:///notes', text: 'héllo' } },
        { type: 'resource', resource: { uri: 'file:///raw.bin', blob: 'AAEC' } },
      ],
      read,
    );
    expect(reads).toEqual([]);
    if (!('files' in gathered)) throw new Error(JSON.stringify(gathered));
    expect(describedFiles(gathered.files)).toEqual([
      { name: 'export.json', mimeType: 'application/json', size: 7 },
      { name: 'dot.png', mimeType: 'image/png', size: 4 },
      { name: 'notes.txt', mimeType: 'text/plain', size: 6 },
      { name: 'raw.bin', mimeType: 'application/octet-stream', size: 3 },
    ]);
    expect(text(gathered.files[2].bytes)).toBe('héllo');
    expect([...gathered.files[1].bytes]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect([...gathered.files[3].bytes]).toEqual([0, 1, 2]);
  });

  it('reads a link from the app’s own server: one part named after the link, several after their own URI', async () => {
    const { read, reads } = reader({
      'report://q4': { result: { contents: [{ uri: 'report://q4', mimeType: 'text/csv', text: 'q,total\n4,9\n' }] } },
      'report://trip': {
        result: {
          contents: [
            { uri: 'report://trip', text: 'plan' },
            { uri: 'report://trip/map.png', mimeType: 'image/png', blob: 'AAAA' },
          ],
        },
      },
    });
    const gathered = await appDownloadFiles(
      [
        { type: 'resource_link', uri: 'report://q4', name: 'Q4 Report' },
        { type: 'resource_link', uri: 'report://trip', name: 'Trip', mimeType: 'text/markdown' },
      ],
      read,
    );
    expect(reads).toEqual(['report://q4', 'report://trip']);
    if (!('files' in gathered)) throw new Error(JSON.stringify(gathered));
    expect(describedFiles(gathered.files)).toEqual([
      { name: 'Q4 Report.csv', mimeType: 'text/csv', size: 12 },
      { name: 'Trip (part 1 of 2).md', mimeType: 'text/markdown', size: 4 },
      { name: 'map.png', mimeType: 'image/png', size: 3 },
    ]);
    expect(text(gathered.files[0].bytes)).toBe('q,total\n4,9\n');
  });

  it('refuses a web or browser address without reading anything, and names it', async () => {
    for (const uri of ['https://example.com/q4.pdf', 'http://127.0.0.1/x', 'data:text/plain,hi', 'javascript:1']) {
      const { read, reads } = reader({});
      const gathered = await appDownloadFiles(
        [
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'a' } },
          { type: 'resource_link', uri, name: 'x' },
        ],
        read,
      );
      expect(gathered).toEqual({
        refusal: {
          code: -32602,
          message: `Only resources of the app’s own MCP server are downloaded; ${uri} is not one, and this host fetches nothing from elsewhere.`,
        },
      });
      expect(reads).toEqual([]);
    }
  });

  it('refuses a link its server cannot read, or whose content is not a resource', async () => {
    const { read } = reader({
      'note://empty': { result: { contents: [] } },
      'note://bad': { result: { contents: [{ uri: 'note://bad', blob: 'not base64!' }] } },
    });
    expect(await appDownloadFiles([{ type: 'resource_link', uri: 'note://other-server', name: 'n' }], read)).toEqual({
      refusal: {
        code: -32000,
        message: 'Could not read note://other-server: Apps: Resource note://other-server not found',
      },
    });
    expect(await appDownloadFiles([{ type: 'resource_link', uri: 'note://empty', name: 'n' }], read)).toEqual({
      refusal: { code: -32000, message: 'note://empty has no content to save.' },
    });
    expect(await appDownloadFiles([{ type: 'resource_link', uri: 'note://bad', name: 'n' }], read)).toEqual({
      refusal: { code: -32000, message: 'note://bad has a part that is not base64.' },
    });
  });

  it('saves at most 10 files and 20 MB in all, and says so', async () => {
    const { read } = reader({
      'note://many': {
        result: { contents: Array.from({ length: 6 }, (_, index) => ({ uri: `note://many/${index}`, text: 'x' })) },
      },
    });
    const one: McpAppDownloadContent = { type: 'resource', resource: { uri: 'file:///a.txt', text: 'a' } };
    expect(
      await appDownloadFiles(
        Array.from({ length: 11 }, () => one),
        read,
      ),
    ).toEqual({
      refusal: { code: -32000, message: '11 files were asked for; at most 10 are saved at once.' },
    });
    expect(
      await appDownloadFiles(
        [...Array.from({ length: 5 }, () => one), { type: 'resource_link', uri: 'note://many', name: 'many' }],
        read,
      ),
    ).toEqual({ refusal: { code: -32000, message: '11 files were asked for; at most 10 are saved at once.' } });
    const half = 'x'.repeat(10 * MB);
    const big: McpAppDownloadContent = { type: 'resource', resource: { uri: 'file:///big.txt', text: half } };
    expect(await appDownloadFiles([big, big], read)).toHaveProperty('files');
    expect(await appDownloadFiles([big, big, one], read)).toEqual({
      refusal: { code: -32000, message: `The files come to ${20 * MB + 1} bytes; at most 20 MB are saved at once.` },
    });
  });
});
