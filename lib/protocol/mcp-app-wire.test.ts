import { describe, expect, it } from 'vitest';
import { MCP_APP_RESOURCE_READ_LIMIT, mcpAppReadResultSchema, mcpAppRequestSchema } from './mcp-app-wire';

describe('the MCP App requests the stage hands the runtime', () => {
  it('takes a message, an absolute link and a uri, and nothing else', () => {
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/message', text: 'hi' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/message', text: '' }).success).toBe(false);
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/open-link', url: 'https://example.com' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'ui/open-link', url: 'not a url' }).success).toBe(false);
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/read', uri: 'ui://a/b' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'tools/list' }).success).toBe(false);
  });

  it('takes a page of the resource list, with or without a cursor', () => {
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/list' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/list', cursor: 'page-2' }).success).toBe(true);
    expect(mcpAppRequestSchema.safeParse({ method: 'resources/list', cursor: 2 }).success).toBe(false);
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
