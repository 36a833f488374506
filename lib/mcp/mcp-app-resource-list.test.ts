import { describe, expect, it } from 'vitest';
import { mcpAppResourceList } from './mcp-app-resource-list';

describe('mcpAppResourceList', () => {
  it('keeps a page as the MCP SDK reads it, its next cursor included', () => {
    const page = {
      resources: [{ uri: 'note://a', name: 'a', mimeType: 'text/plain', _meta: { ui: {} } }],
      nextCursor: 'page-2',
    };
    expect(mcpAppResourceList('Apps', page)).toEqual({ result: page });
  });

  it('refuses what is not a resource list, and a list too large to hand an app', () => {
    expect(mcpAppResourceList('Apps', { resources: [{ name: 'no uri' }] })).toEqual({
      error: expect.stringMatching(/^Apps sent an unusable resource list: resources\.0\.uri: /),
    });
    const many = {
      resources: Array.from({ length: 20_000 }, (_, index) => ({ uri: `note://${index}`, name: 'x'.repeat(100) })),
    };
    expect(mcpAppResourceList('Apps', many)).toEqual({
      error: 'Apps sent a resource list larger than 2000000 characters.',
    });
  });
});
