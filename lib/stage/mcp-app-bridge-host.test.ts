import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpAppFromHostMessage, McpAppLoad } from '../protocol/mcp-app-wire';
import type { McpAppRequest, McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { MCP_APP_CONTEXT_LIMIT } from '../protocol/mcp-app-wire';
import { MCP_APP_IMAGE_LIMITS } from '../protocol/mcp-app-images';
import { MCP_APP_PROGRESS_EVERY_MS, McpAppBridge, type McpAppLogEntry } from './mcp-app-bridge';
import type { McpAppDisplayMode } from '../protocol/mcp-app-wire';

const app: McpAppLoad = {
  resourceUri: 'ui://official-counter/mcp-app.html',
  serverName: 'Apps',
  html: '<p>app</p>',
  csp: { connectDomains: ['http://127.0.0.1:9'], resourceDomains: [] },
  grantedConnect: ['http://127.0.0.1:9'],
  tool: { name: 'showOfficialCounter', inputSchema: { type: 'object' } },
  input: { start: 41 },
  result: { content: [] },
};

interface Setup {
  declared?: string[];
  answer?: () => Promise<McpAppToolAnswer>;
}

function bridge({ declared, answer = () => Promise.resolve({ result: {} }) }: Setup = {}) {
  const posted: McpAppFromHostMessage[] = [];
  const requests: McpAppRequest[] = [];
  const shown: McpAppDisplayMode[] = [];
  const logs: McpAppLogEntry[] = [];
  const refused: string[] = [];
  const host: McpAppBridge = new McpAppBridge({
    app,
    post: (message) => posted.push(message),
    callTool: () => answer(),
    request: (request) => {
      requests.push(request);
      return answer();
    },
    onSize: () => undefined,
    showIn: (mode) => {
      shown.push(mode);
      host.updateHostContext({ displayMode: mode, containerDimensions: { width: 800, height: 600 } });
    },
    onLog: (entry) => logs.push(entry),
    onRefused: (reason) => refused.push(reason),
    onInitialized: () => undefined,
    hostContext: { theme: 'light', displayMode: 'inline', containerDimensions: { width: 800, maxHeight: 4000 } },
    admittedConnect: ['http://127.0.0.1:9'],
  });
  host.receive({
    jsonrpc: '2.0',
    id: 0,
    method: 'ui/initialize',
    params: {
      protocolVersion: '2026-01-26',
      ...(declared ? { appCapabilities: { availableDisplayModes: declared } } : {}),
    },
  });
  host.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
  return { host, posted, requests, shown, logs, refused };
}

async function settled(): Promise<void> {
  for (let round = 0; round < 5; round++) await Promise.resolve();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('McpAppBridge, the host features an official-SDK app uses', () => {
  it('tells the app exactly what it serves: tools, resources, links, text messages, context, logs, its network', () => {
    const { posted } = bridge();
    expect(posted[0]).toMatchObject({
      id: 0,
      result: {
        hostCapabilities: {
          serverTools: {},
          serverResources: {},
          openLinks: {},
          message: { text: {} },
          updateModelContext: { text: {}, structuredContent: {} },
          logging: {},
          sandbox: { permissions: {}, csp: { connectDomains: ['http://127.0.0.1:9'] } },
        },
      },
    });
    const capabilities = (posted[0] as unknown as { result: { hostCapabilities: Record<string, unknown> } }).result
      .hostCapabilities;
    expect(Object.keys(capabilities).sort()).toEqual(
      ['logging', 'message', 'openLinks', 'sandbox', 'serverResources', 'serverTools', 'updateModelContext'].sort(),
    );
  });

  it('shows the app full screen only when it declared that mode, telling it first, and answers the mode it is in', async () => {
    const declaring = bridge({ declared: ['inline', 'fullscreen'] });
    declaring.host.receive({
      jsonrpc: '2.0',
      id: 5,
      method: 'ui/request-display-mode',
      params: { mode: 'fullscreen' },
    });
    await settled();
    expect(declaring.shown).toEqual(['fullscreen']);
    expect(declaring.posted.slice(-2)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'ui/notifications/host-context-changed',
        params: { displayMode: 'fullscreen', containerDimensions: { width: 800, height: 600 } },
      },
      { jsonrpc: '2.0', id: 5, result: { mode: 'fullscreen' } },
    ]);
    declaring.host.receive({ jsonrpc: '2.0', id: 6, method: 'ui/request-display-mode', params: { mode: 'pip' } });
    await settled();
    expect(declaring.posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 6, result: { mode: 'fullscreen' } });
    expect(declaring.shown).toEqual(['fullscreen']);

    const silent = bridge();
    silent.host.receive({ jsonrpc: '2.0', id: 7, method: 'ui/request-display-mode', params: { mode: 'fullscreen' } });
    await settled();
    expect(silent.shown).toEqual([]);
    expect(silent.posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 7, result: { mode: 'inline' } });
  });

  it('sends only the fields of its context that changed, and nothing before the app is initialized', () => {
    const posted: McpAppFromHostMessage[] = [];
    const host = new McpAppBridge({
      app,
      post: (message) => posted.push(message),
      callTool: () => Promise.resolve({ result: {} }),
      onSize: () => undefined,
      onRefused: () => undefined,
      onInitialized: () => undefined,
      hostContext: { theme: 'light', locale: 'en' },
    });
    host.updateHostContext({ theme: 'dark' });
    expect(posted).toEqual([]);
    host.receive({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} });
    expect(posted[0]).toMatchObject({ result: { hostContext: { theme: 'dark', locale: 'en' } } });
    host.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    posted.length = 0;
    host.updateHostContext({ theme: 'dark', locale: 'en' });
    host.updateHostContext({ theme: 'light', containerDimensions: { width: 300, maxHeight: 4000 } });
    expect(posted).toEqual([
      {
        jsonrpc: '2.0',
        method: 'ui/notifications/host-context-changed',
        params: { theme: 'light', containerDimensions: { width: 300, maxHeight: 4000 } },
      },
    ]);
  });

  it('hands the runtime a context of text, images and structured content, and refuses other blocks and one too large', async () => {
    const { host, posted, requests } = bridge();
    host.receive({
      jsonrpc: '2.0',
      id: 'c1',
      method: 'ui/update-model-context',
      params: {
        content: [
          { type: 'text', text: 'The counter shows 42.' },
          { type: 'text', text: 'The user looks at it.' },
        ],
        structuredContent: { count: 42 },
      },
    });
    await settled();
    expect(requests).toEqual([
      {
        method: 'ui/update-model-context',
        text: 'The counter shows 42.\n\nThe user looks at it.',
        structuredContent: { count: 42 },
      },
    ]);
    expect(posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 'c1', result: {} });

    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    host.receive({
      jsonrpc: '2.0',
      id: 'i1',
      method: 'ui/update-model-context',
      params: { content: [{ type: 'text', text: 'The chart.' }, image] },
    });
    host.receive({
      jsonrpc: '2.0',
      id: 'i2',
      method: 'ui/update-model-context',
      params: { content: Array.from({ length: MCP_APP_IMAGE_LIMITS.context.images + 1 }, () => image) },
    });
    const big = 'A'.repeat((MCP_APP_IMAGE_LIMITS.context.bytes / 3) * 4);
    host.receive({
      jsonrpc: '2.0',
      id: 'i3',
      method: 'ui/update-model-context',
      params: { content: [{ ...image, data: big }, image] },
    });
    await settled();
    expect(requests.at(-1)).toEqual({
      method: 'ui/update-model-context',
      text: 'The chart.',
      images: [{ data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
    });
    const answerOf = (id: string) => posted.find((message) => 'id' in message && message.id === id);
    expect(['i1', 'i2', 'i3'].map(answerOf)).toEqual([
      { jsonrpc: '2.0', id: 'i1', result: {} },
      {
        jsonrpc: '2.0',
        id: 'i2',
        error: {
          code: -32000,
          message: `It gave ${MCP_APP_IMAGE_LIMITS.context.images + 1} images; at most ${MCP_APP_IMAGE_LIMITS.context.images} are taken.`,
        },
      },
      { jsonrpc: '2.0', id: 'i3', error: { code: -32000, message: 'Its images have more than 5 MB in all.' } },
    ]);

    host.receive({
      jsonrpc: '2.0',
      id: 'c2',
      method: 'ui/update-model-context',
      params: { content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] },
    });
    host.receive({
      jsonrpc: '2.0',
      id: 'c3',
      method: 'ui/update-model-context',
      params: {
        content: [{ type: 'text', text: 'x'.repeat(MCP_APP_CONTEXT_LIMIT) }],
        structuredContent: { more: 1 },
      },
    });
    await settled();
    expect(requests).toHaveLength(2);
    expect(posted.slice(-2)).toEqual([
      {
        jsonrpc: '2.0',
        id: 'c2',
        error: { code: -32000, message: 'Only text and image blocks and structured content are taken, not audio.' },
      },
      {
        jsonrpc: '2.0',
        id: 'c3',
        error: { code: -32000, message: `The context is larger than ${MCP_APP_CONTEXT_LIMIT} characters.` },
      },
    ]);
  });

  it('takes the app’s log lines without answering them, cut to a bounded length', () => {
    const { host, posted, logs, refused } = bridge();
    const before = posted.length;
    host.receive({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'viewed' } });
    host.receive({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'error', logger: 'counter', data: { big: 'y'.repeat(5000) } },
    });
    expect(posted.length).toBe(before);
    expect(refused).toEqual([]);
    expect(logs[0]).toEqual({ level: 'info', text: 'viewed' });
    expect(logs[1]?.logger).toBe('counter');
    expect(logs[1]?.text.length).toBe(1000);
    expect(host.record.logs).toBe(2);
  });

  it.each([
    { method: 'tools/call', params: { name: 'incrementCounter', arguments: { by: 1 } } },
    { method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'hi' }] } },
    { method: 'ui/open-link', params: { url: 'https://example.com/' } },
  ])('reports progress on a $method the user is still deciding, so the SDK keeps waiting for it', async (request) => {
    vi.useFakeTimers();
    let finish: (answer: McpAppToolAnswer) => void = () => undefined;
    const { host, posted } = bridge({ answer: () => new Promise((resolve) => (finish = resolve)) });
    host.receive({ jsonrpc: '2.0', id: 3, ...request, params: { ...request.params, _meta: { progressToken: 3 } } });
    await vi.advanceTimersByTimeAsync(MCP_APP_PROGRESS_EVERY_MS * 3);
    const progress = posted.filter((message) => 'method' in message && message.method === 'notifications/progress');
    expect(progress).toEqual(
      [1, 2, 3].map((step) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 3, progress: step },
      })),
    );
    finish({ result: { content: [] } });
    await vi.advanceTimersByTimeAsync(MCP_APP_PROGRESS_EVERY_MS * 3);
    expect(posted.at(-1)).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [] } });
    expect(posted.filter((message) => 'method' in message && message.method === 'notifications/progress')).toHaveLength(
      3,
    );
  });

  it('reports no progress on a request without a token', async () => {
    vi.useFakeTimers();
    const { host, posted } = bridge({ answer: () => new Promise(() => undefined) });
    host.receive({
      jsonrpc: '2.0',
      id: 4,
      method: 'ui/message',
      params: { role: 'user', content: { type: 'text', text: 'hi' } },
    });
    await vi.advanceTimersByTimeAsync(MCP_APP_PROGRESS_EVERY_MS * 3);
    expect(posted.some((message) => 'method' in message && message.method === 'notifications/progress')).toBe(false);
  });

  it('does not answer a request the app cancelled', async () => {
    let finish: (answer: McpAppToolAnswer) => void = () => undefined;
    const { host, posted, refused } = bridge({ answer: () => new Promise((resolve) => (finish = resolve)) });
    host.receive({
      jsonrpc: '2.0',
      id: 'm1',
      method: 'ui/message',
      params: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    });
    host.receive({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'm1', reason: 'timed out' },
    });
    const before = posted.length;
    finish({ result: {} });
    await settled();
    expect(posted.length).toBe(before);
    expect(refused).toEqual([]);
  });

  it('asks the app to tear down and waits for its answer, at most the time given, then takes nothing more', async () => {
    const { host, posted } = bridge();
    const tearing = host.teardown('The stage shows another target.', 3000);
    const request = posted.at(-1) as { id: string; method: string; params: unknown };
    expect(request).toMatchObject({
      method: 'ui/resource-teardown',
      params: { reason: 'The stage shows another target.' },
    });
    host.receive({ jsonrpc: '2.0', id: request.id, result: {} });
    expect(await tearing).toBe('answered');
    const count = posted.length;
    host.receive({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(posted.length).toBe(count);

    vi.useFakeTimers();
    const slow = bridge().host;
    const waiting = slow.teardown('closing', 3000);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await waiting).toBe('timed-out');
  });

  it('never asks an app that did not initialize to tear down', async () => {
    const posted: McpAppFromHostMessage[] = [];
    const host = new McpAppBridge({
      app,
      post: (message) => posted.push(message),
      callTool: () => Promise.resolve({ result: {} }),
      onSize: () => undefined,
      onRefused: () => undefined,
      onInitialized: () => undefined,
      hostContext: {},
    });
    expect(await host.teardown('closing', 3000)).toBe('not-initialized');
    expect(posted).toEqual([]);
  });
});
