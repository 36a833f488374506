import { describe, expect, it } from 'vitest';
import { MCP_APP_IMAGE_LIMITS } from './mcp-app-images';
import { mcpAppDownloadContentSchema } from './mcp-app-download';
import { MCP_APP_RESOURCE_READ_LIMIT } from './mcp-app-wire';
import { mcpAppReadResultSchema, mcpAppRequestSchema } from './mcp-app-runtime-wire';

describe('the MCP App requests the stage hands the runtime', () => {
  it('takes a message, an absolute link and a uri, and nothing else', () => {
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/message', text: 'hi' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/message', text: '' }).success).toBe(false);
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/open-link', url: 'https://example.com' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/open-link', url: 'not a url' }).success).toBe(false);
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/read', uri: 'ui://a/b' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'tools/list' }).success).toBe(false);
  });

  it('takes a message or context with images within their limits: count, and bytes in all', () => {
    const image = { data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const images = (count: number) => Array.from({ length: count }, () => image);
    const parses = (request: object) => mcpAppRequestSchema.safeParse(request).success;
    expect(parses({ method: 'ui/message', text: '', images: [image] })).toBe(true);
    expect(parses({ method: 'ui/message', text: '', images: [] })).toBe(false);
    expect(parses({ method: 'ui/message', text: 'hi', images: images(MCP_APP_IMAGE_LIMITS.message.images) })).toBe(
      true,
    );
    expect(parses({ method: 'ui/message', text: 'hi', images: images(MCP_APP_IMAGE_LIMITS.message.images + 1) })).toBe(
      false,
    );
    const context = { method: 'ui/update-model-context', text: '' };
    expect(parses({ ...context, images: images(MCP_APP_IMAGE_LIMITS.context.images) })).toBe(true);
    expect(parses({ ...context, images: images(MCP_APP_IMAGE_LIMITS.context.images + 1) })).toBe(false);
    const half = { ...image, data: 'A'.repeat((MCP_APP_IMAGE_LIMITS.context.bytes / 3) * 2) };
    expect(parses({ ...context, images: [half, half] })).toBe(true);
    expect(parses({ ...context, images: [half, half, image] })).toBe(false);
  });

  it('takes a page of the resource list, with or without a cursor', () => {
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/list' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/list', cursor: 'page-2' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/list', cursor: 2 }).success).toBe(false);
  });

  it('takes the files of a download within the count and the size in all', () => {
    const file = { name: 'report.csv', mimeType: 'text/csv', size: 27 };
    const download = (files: unknown[]) => mcpAppRequestSchema.safeParse({ method: 'ui/download-file', files });
    expect(download([file]).success).toBe(true);
    expect(download([]).success).toBe(false);
    expect(download(Array.from({ length: 11 }, () => file)).success).toBe(false);
    expect(
      download([
        { ...file, size: 15 * 1024 * 1024 },
        { ...file, size: 6 * 1024 * 1024 },
      ]).success,
    ).toBe(false);
    expect(download([{ ...file, name: '' }]).success).toBe(false);
  });
});

describe('the contents of an app’s ui/download-file', () => {
  it('are embedded text or base64, or links with a name', () => {
    const contents = (value: unknown) => mcpAppDownloadContentSchema.safeParse(value).success;
    expect(contents({ type: 'resource', resource: { uri: 'file:///a.txt', text: 'a' } })).toBe(true);
    expect(
      contents({ type: 'resource', resource: { uri: 'file:///a.png', mimeType: 'image/png', blob: 'AAAA' } }),
    ).toBe(true);
    expect(contents({ type: 'resource', resource: { uri: 'file:///a.png', blob: 'not base64' } })).toBe(false);
    expect(contents({ type: 'resource', resource: { uri: '', text: 'a' } })).toBe(false);
    expect(contents({ type: 'resource_link', uri: 'report://q4', name: 'Q4' })).toBe(true);
    expect(contents({ type: 'resource_link', uri: 'report://q4' })).toBe(false);
    expect(contents({ type: 'image', data: 'AAAA', mimeType: 'image/png' })).toBe(false);
  });
});

describe('a resources/read result as an app gets it', () => {
  it('keeps text and blob contents and drops what else a server adds', () => {
    const parsed = mcpAppReadResultSchema.parse({
      contents: [
        { uri: 'note://a', text: 'buy milk', secret: 1 },
        { uri: 'image://dot', mimeType: 'image/png', blob: 'AAAA' },
      ],
      extra: true,
    });
    expect(parsed).toEqual({
      contents: [
        { uri: 'note://a', text: 'buy milk' },
        { uri: 'image://dot', mimeType: 'image/png', blob: 'AAAA' },
      ],
    });
  });

  it('refuses a result that is not one, and one larger than the limit', () => {
    expect(mcpAppReadResultSchema.safeParse({ contents: 'nope' }).success).toBe(false);
    expect(mcpAppReadResultSchema.safeParse({ contents: [{ uri: 'x' }] }).success).toBe(false);
    const half = 'x'.repeat(MCP_APP_RESOURCE_READ_LIMIT / 2);
    expect(
      mcpAppReadResultSchema.safeParse({
        contents: [
          { uri: 'a', text: half },
          { uri: 'b', text: half },
        ],
      }).success,
    ).toBe(true);
    const result = mcpAppReadResultSchema.safeParse({
      contents: [
        { uri: 'a', text: half },
        { uri: 'b', text: `${half}!` },
      ],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      `The resource is larger than ${MCP_APP_RESOURCE_READ_LIMIT} characters.`,
    );
  });
});
