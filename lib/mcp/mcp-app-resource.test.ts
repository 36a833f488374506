import { describe, expect, it } from 'vitest';
import { mcpAppDocument, mcpToolApp } from './mcp-app-resource';

describe('mcpToolApp', () => {
  it('reads _meta.ui.resourceUri, the older _meta["ui/resourceUri"], and app-only visibility', () => {
    expect(mcpToolApp({ ui: { resourceUri: 'ui://a/app.html' } })).toEqual({
      resourceUri: 'ui://a/app.html',
      appOnly: false,
    });
    expect(mcpToolApp({ 'ui/resourceUri': 'ui://b' })).toEqual({ resourceUri: 'ui://b', appOnly: false });
    expect(mcpToolApp({ ui: { visibility: ['app'] } })).toEqual({ appOnly: true });
    expect(mcpToolApp({ ui: { visibility: ['model', 'app'] } })).toEqual({ appOnly: false });
  });

  it('ignores what is not a ui:// resource', () => {
    expect(mcpToolApp({ ui: { resourceUri: 'https://evil.example/app.html' } })).toEqual({ appOnly: false });
    expect(mcpToolApp(undefined)).toEqual({ appOnly: false });
    expect(mcpToolApp('nonsense')).toEqual({ appOnly: false });
  });
});

describe('mcpAppDocument', () => {
  const uri = 'ui://a/app.html';

  it('takes the text/html;profile=mcp-app content, as text or base64 blob, with its declared csp', () => {
    const csp = { connectDomains: ['https://api.example'], resourceDomains: [] };
    expect(
      mcpAppDocument(
        { contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: '<p>hi</p>', _meta: { ui: { csp } } }] },
        uri,
      ),
    ).toEqual({ ok: true, html: '<p>hi</p>', csp });
    expect(
      mcpAppDocument({ contents: [{ uri, mimeType: 'text/html; profile=mcp-app', blob: btoa('<p>blob</p>') }] }, uri),
    ).toEqual({ ok: true, html: '<p>blob</p>', csp: { connectDomains: [], resourceDomains: [] } });
  });

  it('says why a resource cannot be shown', () => {
    expect(mcpAppDocument({ contents: [{ uri, mimeType: 'text/html', text: 'x' }] }, uri)).toEqual({
      ok: false,
      error: 'ui://a/app.html has no content of type text/html;profile=mcp-app.',
    });
    expect(mcpAppDocument({ nope: true }, uri)).toEqual({
      ok: false,
      error: "The server's answer to reading ui://a/app.html is not a resource.",
    });
    expect(mcpAppDocument({ contents: [{ uri, mimeType: 'text/html;profile=mcp-app', blob: '%%%' }] }, uri).ok).toBe(
      false,
    );
  });
});
