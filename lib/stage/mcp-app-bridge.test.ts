import { describe, expect, it } from 'vitest';
import type { McpAppFromHostMessage, McpAppLoad } from '../protocol/mcp-app-wire';
import type { McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { McpAppBridge } from './mcp-app-bridge';
import { COUNTER_APP } from './requesting-app-bridge';

const app: McpAppLoad = {
  ...COUNTER_APP,
  input: { start: 41 },
  result: { content: [{ type: 'text', text: 'The counter is at 41.' }], structuredContent: { count: 41 } },
};

function bridge(answer: McpAppToolAnswer = { result: { content: [] } }) {
  const posted: McpAppFromHostMessage[] = [];
  const calls: { name: string; input: unknown }[] = [];
  const refused: string[] = [];
  const sizes: unknown[] = [];
  const host = new McpAppBridge({
    app,
    post: (message) => posted.push(message),
    callTool: (name, input) => {
      calls.push({ name, input });
      return Promise.resolve(answer);
    },
    onSize: (size) => sizes.push(size),
    onRefused: (reason) => refused.push(reason),
    onInitialized: () => undefined,
    hostContext: { platform: 'web' },
  });
  return { host, posted, calls, refused, sizes };
}

function initialize(host: McpAppBridge): void {
  host.receive({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26' } });
  host.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
}

describe('McpAppBridge', () => {
  it('answers ui/initialize with the host context, then sends the tool input and result once initialized', () => {
    const { host, posted } = bridge();
    initialize(host);
    expect(posted[0]).toMatchObject({
      id: 1,
      result: { protocolVersion: '2026-01-26', hostInfo: { name: 'splitbrain' }, hostContext: { platform: 'web' } },
    });
    expect(posted[1]).toEqual({
      jsonrpc: '2.0',
      method: 'ui/notifications/tool-input',
      params: { arguments: { start: 41 } },
    });
    expect(posted[2]).toEqual({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: app.result });
    host.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    expect(posted).toHaveLength(3);
  });

  it('proxies the app’s tools/call and posts the answer, a result or a JSON-RPC error', async () => {
    const { host, posted, calls } = bridge({ error: 'Not run: the user denied this call.' });
    initialize(host);
    host.receive({
      jsonrpc: '2.0',
      id: 'c1',
      method: 'tools/call',
      params: { name: 'incrementCounter', arguments: { by: 1 } },
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toEqual([{ name: 'incrementCounter', input: { by: 1 } }]);
    expect(posted.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 'c1',
      error: { code: -32603, message: 'Not run: the user denied this call.' },
    });
  });

  it('refuses a call before the handshake, unknown methods, bad params and what is not JSON-RPC', () => {
    const { host, posted, calls, refused } = bridge();
    host.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } });
    host.receive('garbage');
    host.receive({ jsonrpc: '2.0', id: 2, method: 'ui/download-everything' });
    host.receive({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: 5 } });
    host.receive({ jsonrpc: '2.0', method: 'notifications/unknown' });
    expect(calls).toEqual([]);
    expect(posted).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Call ui/initialize and send initialized first.' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Not a JSON-RPC 2.0 message.' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: ui/download-everything.' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params for tools/call.' } },
    ]);
    expect(refused).toHaveLength(5);
  });

  it('passes size changes on and answers ping', () => {
    const { host, posted, sizes } = bridge();
    host.receive({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 300, height: 200 } });
    host.receive({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(sizes).toEqual([{ width: 300, height: 200 }]);
    expect(posted).toEqual([{ jsonrpc: '2.0', id: 9, result: {} }]);
  });
});
