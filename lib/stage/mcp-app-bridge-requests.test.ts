import { describe, expect, it } from 'vitest';
import type { McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { MCP_APP_IMAGE_BASE64_LIMIT, MCP_APP_IMAGE_LIMITS } from '../protocol/mcp-app-images';
import { requestingAppBridge } from './requesting-app-bridge';

function bridge(answer: McpAppToolAnswer | undefined) {
  return requestingAppBridge(answer ? { answer: () => answer } : {});
}

async function settled(): Promise<void> {
  for (let round = 0; round < 3; round++) await Promise.resolve();
}

describe('McpAppBridge requests: ui/message, ui/open-link, resources/read, resources/list', () => {
  it('offers links, resources and messages of text and images in its capabilities only when it can serve them', () => {
    const served = bridge({ result: {} }).posted[0];
    expect(served).toMatchObject({
      result: {
        hostCapabilities: {
          serverTools: {},
          serverResources: {},
          openLinks: {},
          message: { text: {}, image: {} },
          updateModelContext: { text: {}, image: {}, structuredContent: {} },
        },
      },
    });
    expect(bridge(undefined).posted[0]).toMatchObject({ result: { hostCapabilities: { serverTools: {} } } });
    expect(JSON.stringify(bridge(undefined).posted[0])).not.toContain('openLinks');
  });

  it('hands a message (one block or several, text joined) to the runtime and answers its result', async () => {
    const { host, posted, requests } = bridge({ result: {} });
    host.receive({
      jsonrpc: '2.0',
      id: 'm1',
      method: 'ui/message',
      params: { role: 'user', content: { type: 'text', text: 'Hello' } },
    });
    host.receive({
      jsonrpc: '2.0',
      id: 'm2',
      method: 'ui/message',
      params: {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
    });
    await settled();
    expect(requests).toEqual([
      { method: 'ui/message', text: 'Hello' },
      { method: 'ui/message', text: 'One\n\nTwo' },
    ]);
    expect(posted.slice(-2)).toEqual([
      { jsonrpc: '2.0', id: 'm1', result: {} },
      { jsonrpc: '2.0', id: 'm2', result: {} },
    ]);
  });

  it('hands the runtime a message’s images as they came (the runtime checks their bytes), with or without text', async () => {
    const { host, posted, requests } = bridge({ result: {} });
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', annotations: { audience: ['user'] } };
    host.receive({
      jsonrpc: '2.0',
      id: 'i1',
      method: 'ui/message',
      params: { role: 'user', content: [{ type: 'text', text: 'Look' }, image] },
    });
    host.receive({ jsonrpc: '2.0', id: 'i2', method: 'ui/message', params: { role: 'user', content: image } });
    await settled();
    expect(requests).toEqual([
      { method: 'ui/message', text: 'Look', images: [{ data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
      { method: 'ui/message', text: '', images: [{ data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
    ]);
    expect(posted.slice(-2)).toEqual([
      { jsonrpc: '2.0', id: 'i1', result: {} },
      { jsonrpc: '2.0', id: 'i2', result: {} },
    ]);
  });

  it('refuses audio, a resource, an image without data, too many images or bytes, and an empty message', async () => {
    const { host, posted, requests } = bridge({ result: {} });
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const contents = [
      [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
      [
        { type: 'text', text: 'see' },
        { type: 'resource', resource: { uri: 'note://a', text: 'a' } },
      ],
      [{ type: 'image', mimeType: 'image/png' }],
      Array.from({ length: MCP_APP_IMAGE_LIMITS.message.images + 1 }, () => image),
      [{ type: 'image', data: 'A'.repeat(MCP_APP_IMAGE_BASE64_LIMIT - 4), mimeType: 'image/png' }, image],
      [{ type: 'text', text: '' }],
    ];
    contents.forEach((content, index) =>
      host.receive({ jsonrpc: '2.0', id: index, method: 'ui/message', params: { role: 'user', content } }),
    );
    await settled();
    expect(requests).toEqual([]);
    expect(posted.slice(3).map((message) => ('error' in message ? message.error : message))).toEqual(
      [
        'Only text and image blocks are taken, not audio.',
        'Only text and image blocks are taken, not resource.',
        'Block 1 is an image block without data and mimeType.',
        `It gave ${MCP_APP_IMAGE_LIMITS.message.images + 1} images; at most ${MCP_APP_IMAGE_LIMITS.message.images} are taken.`,
        'Its images have more than 20 MB in all.',
        'The message has neither text nor an image.',
      ].map((message) => ({ code: -32602, message })),
    );
  });

  it('refuses a message that is not the user’s text, and answers a declined one with -32000', async () => {
    const { host, posted, requests } = bridge({ error: 'Message sending denied by the user.' });
    host.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/message',
      params: { role: 'assistant', content: { type: 'text', text: 'I am the model' } },
    });
    host.receive({
      jsonrpc: '2.0',
      id: 2,
      method: 'ui/message',
      params: { role: 'user', content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] },
    });
    host.receive({
      jsonrpc: '2.0',
      id: 3,
      method: 'ui/message',
      params: { role: 'user', content: { type: 'text', text: 'x'.repeat(10_001) } },
    });
    host.receive({
      jsonrpc: '2.0',
      id: 4,
      method: 'ui/message',
      params: { role: 'user', content: { type: 'text', text: 'hi' } },
    });
    await settled();
    expect(requests).toEqual([{ method: 'ui/message', text: 'hi' }]);
    expect(posted.slice(-4)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params for ui/message.' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Only text and image blocks are taken, not audio.' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params for ui/message.' } },
      { jsonrpc: '2.0', id: 4, error: { code: -32000, message: 'Message sending denied by the user.' } },
    ]);
  });

  it('forwards only http and https links; every other scheme is refused without asking', async () => {
    const { host, posted, requests } = bridge({ result: {} });
    const urls = [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'chrome://settings',
      'file:///etc/passwd',
      'nonsense',
    ];
    urls.forEach((url, index) => host.receive({ jsonrpc: '2.0', id: index, method: 'ui/open-link', params: { url } }));
    host.receive({ jsonrpc: '2.0', id: 'web', method: 'ui/open-link', params: { url: 'https://example.com/a' } });
    await settled();
    expect(requests).toEqual([{ method: 'ui/open-link', url: 'https://example.com/a' }]);
    expect(posted.flatMap((message) => ('error' in message ? [message.error] : []))).toEqual(
      urls.map(() => ({ code: -32602, message: 'Only http and https links are opened.' })),
    );
    expect(posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 'web', result: {} });
  });

  it('forwards resources/list with its cursor, and answers the page the runtime read', async () => {
    const page = { resources: [{ uri: 'note://first', name: 'first-note' }], nextCursor: 'page-2' };
    const { host, posted, requests } = bridge({ result: page });
    host.receive({ jsonrpc: '2.0', id: 1, method: 'resources/list' });
    host.receive({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: { cursor: 'page-2' } });
    await settled();
    expect(requests).toEqual([{ method: 'resources/list' }, { method: 'resources/list', cursor: 'page-2' }]);
    expect(posted.slice(-2)).toEqual([
      { jsonrpc: '2.0', id: 1, result: page },
      { jsonrpc: '2.0', id: 2, result: page },
    ]);
  });

  it('forwards resources/read by uri, and answers -32601 for all three when the host serves none', async () => {
    const { host, requests } = bridge({ result: { contents: [] } });
    host.receive({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://counter/app.html' } });
    await settled();
    expect(requests).toEqual([{ method: 'resources/read', uri: 'ui://counter/app.html' }]);

    const bare = bridge(undefined);
    bare.host.receive({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'ui://x' } });
    bare.host.receive({ jsonrpc: '2.0', id: 'l', method: 'ui/open-link', params: { url: 'https://example.com' } });
    await settled();
    expect(bare.posted.slice(-2)).toEqual([
      { jsonrpc: '2.0', id: 'r', error: { code: -32601, message: 'Method not found: resources/read.' } },
      { jsonrpc: '2.0', id: 'l', error: { code: -32601, message: 'Method not found: ui/open-link.' } },
    ]);
  });
});
