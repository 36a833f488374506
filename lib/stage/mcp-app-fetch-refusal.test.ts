import { describe, expect, it } from 'vitest';
import { mcpAppFetchRefusal } from './mcp-app-fetch-refusal';

describe('mcpAppFetchRefusal', () => {
  it('names the origins the app was granted', () => {
    expect(mcpAppFetchRefusal('https://evil.test/steal?x=1', ['https://api.test', 'https://cdn.test'])).toBe(
      'https://evil.test is not among the origins granted to this MCP App (https://api.test, https://cdn.test).',
    );
  });

  it('says how an app is granted an origin when it has none', () => {
    expect(mcpAppFetchRefusal('https://api.test/data', [])).toBe(
      'https://api.test was not granted to this MCP App: it reaches only origins its resource declares and you grant in the panel.',
    );
  });

  it('quotes the start of a URL that does not parse', () => {
    expect(mcpAppFetchRefusal(`not a url ${'x'.repeat(300)}`, [])).toMatch(/^not a url x{190} was not granted/);
  });
});
