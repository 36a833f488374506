import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { z } from 'zod';
import { officialSdkAppHtml } from './official-sdk-app/official-sdk-app-html';

export const MCP_APP_MIME = 'text/html;profile=mcp-app';
export const COUNTER_APP_URI = 'ui://counter/app.html';
export const HOSTILE_APP_URI = 'ui://hostile/app.html';
/** A resource only the `/other` server has: an app of `/apps` must not reach it through its host. */
export const OTHER_SERVER_NOTE_URI = 'note://other-server';
export const NETWORK_APP_URI = 'ui://network/app.html';
/** The app built with the official SDK (`@modelcontextprotocol/ext-apps`), registered as its examples register theirs. */
export const OFFICIAL_APP_URI = 'ui://official-counter/mcp-app.html';

/**
 * An MCP App written to SEP-1865 by hand (no SDK bundle, so it is served offline as one document): it initializes,
 * shows the tool input and result it is sent, and its button calls `incrementCounter` back through the host;
 * `window.appRequest(key, method, params)` sends any other request (the answer lands in `window.answers[key]`), and
 * `window.sendImage(key, method, image)` a message or context with an image.
 * Everything it receives is kept in `window.appLog` for the test to read.
 */
export const COUNTER_APP_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Counter app</title>
<style>body{font:16px system-ui;margin:12px}#count{font-size:40px}</style></head>
<body>
<h1>Counter</h1>
<p>Input: <code id="input">none</code></p>
<p>Count: <span id="count">?</span></p>
<p id="result-text"></p>
<button id="increment" type="button">Add one on the server</button>
<p id="call-result"></p>
<script type="module">
const appLog = (window.appLog = []);
let nextId = 1;
const waiting = new Map();
function request(method, params) {
  const id = nextId++;
  window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
  return new Promise((resolve) => waiting.set(id, resolve));
}
// For the test: any request the app may send, its answer kept by key in window.answers.
window.answers = {};
window.appRequest = (key, method, params) => request(method, params).then((answer) => (window.answers[key] = answer));
// For the test: a ui/message or ui/update-model-context with an image block (its base64 \`data\`, or \`filler\`
// characters of base64 made here, so that a large one need not cross the test's connection), after a text block.
window.sendImage = (key, method, { text, data, filler, mimeType }) => {
  const content = [
    ...(text ? [{ type: 'text', text }] : []),
    { type: 'image', data: data ?? 'A'.repeat(filler), mimeType },
  ];
  return window.appRequest(key, method, method === 'ui/message' ? { role: 'user', content } : { content });
};
function notify(method, params) {
  window.parent.postMessage({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }, '*');
}
window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const message = event.data;
  if (!message || message.jsonrpc !== '2.0') return;
  appLog.push(message);
  if (message.id !== undefined && waiting.has(message.id)) {
    waiting.get(message.id)(message);
    waiting.delete(message.id);
    return;
  }
  if (message.method === 'ui/notifications/tool-input')
    document.getElementById('input').textContent = JSON.stringify(message.params.arguments);
  if (message.method === 'ui/notifications/tool-result') {
    document.getElementById('count').textContent = String(message.params.structuredContent?.count);
    document.getElementById('result-text').textContent = message.params.content?.[0]?.text ?? '';
  }
});
document.getElementById('increment').addEventListener('click', async () => {
  document.getElementById('call-result').textContent = 'waiting for approval';
  const answer = await request('tools/call', { name: 'incrementCounter', arguments: { by: 1 } });
  if (answer.error) {
    document.getElementById('call-result').textContent = 'error: ' + answer.error.message;
    return;
  }
  document.getElementById('count').textContent = String(answer.result.structuredContent?.count);
  document.getElementById('call-result').textContent = answer.result.content?.[0]?.text ?? '';
});
const initialized = await request('ui/initialize', {
  protocolVersion: '2026-01-26',
  appInfo: { name: 'counter', version: '1.0.0' },
  appCapabilities: {},
});
window.hostContext = initialized.result?.hostContext;
notify('ui/notifications/initialized');
notify('ui/notifications/size-changed', { width: 400, height: document.documentElement.scrollHeight });
</script>
</body></html>`;

/**
 * An app that misbehaves: it posts what is not JSON-RPC, calls methods the host does not serve, calls with bad
 * params, calls a tool its server does not have, and tries to reach another origin. What it gets back is in
 * `window.appLog` (answers) and `window.fetchOutcome`.
 */
export function hostileAppHtml(offOrigin: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Hostile app</title></head>
<body><p id="status">hostile</p>
<script>
window.appLog = [];
window.addEventListener('message', (event) => {
  if (event.source === window.parent && event.data && event.data.jsonrpc === '2.0') window.appLog.push(event.data);
});
const post = (message) => window.parent.postMessage(message, '*');
post('not json-rpc at all');
post({ jsonrpc: '1.0', id: 1, method: 'ui/initialize' });
post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'incrementCounter', arguments: {} } });
post({ jsonrpc: '2.0', id: 3, method: 'ui/initialize', params: { appInfo: { name: 'hostile', version: '0' } } });
post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
post({ jsonrpc: '2.0', id: 4, method: 'ui/open-everything', params: {} });
post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: 'not an object' } });
post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'noSuchTool', arguments: {} } });
post({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} });
fetch(${JSON.stringify(offOrigin)}).then(
  () => (window.fetchOutcome = 'reached'),
  (error) => (window.fetchOutcome = 'blocked: ' + error.message),
);
</script></body></html>`;
}

/**
 * An unmodified app that reaches the network with plain fetch(): on its tool input it fetches `input.url` and shows
 * the outcome in `#outcome` ("body: …" or "refused: …"); `window.tryFetch(url)` does the same for the test.
 */
export const NETWORK_APP_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Network app</title></head>
<body><h1>Network</h1><p id="outcome">not yet</p>
<script>
window.tryFetch = (url) =>
  fetch(url).then(
    (response) => response.text().then((text) => 'body: ' + text),
    (error) => 'refused: ' + error.message,
  );
window.addEventListener('message', (event) => {
  const message = event.data;
  if (event.source !== window.parent || !message || message.jsonrpc !== '2.0') return;
  if (message.id === 1) {
    window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*');
    return;
  }
  if (message.method === 'ui/notifications/tool-input')
    window.tryFetch(message.params.arguments.url).then((outcome) => {
      document.getElementById('outcome').textContent = outcome;
    });
});
window.parent.postMessage(
  { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'network', version: '1.0.0' } } },
  '*',
);
</script></body></html>`;

/**
 * The MCP Apps of the test server: `showCounter` opens the counter app with its result, `incrementCounter` is the
 * tool the app calls back (app-only, asks), `showHostileApp` opens the hostile one, `showNetworkApp` the one that
 * declares `offOrigin` (and a wildcard, which is never grantable) as its connect domains. Counts go to `count`.
 */
export function registerMcpTestApps(server: McpServer, count: (name: string) => void, offOrigin: string): void {
  let counter = 0;
  server.registerTool(
    'showCounter',
    {
      description: 'Shows the counter app, starting at a number.',
      inputSchema: { start: z.number() },
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: COUNTER_APP_URI }, 'ui/resourceUri': COUNTER_APP_URI },
    },
    ({ start }) => {
      count('showCounter');
      counter = start;
      return { content: [{ type: 'text', text: `The counter is at ${start}.` }], structuredContent: { count: start } };
    },
  );
  server.registerTool(
    'incrementCounter',
    {
      description: 'Adds to the counter.',
      inputSchema: { by: z.number() },
      _meta: { ui: { visibility: ['app'] } },
    },
    ({ by }) => {
      count('incrementCounter');
      counter += by;
      return {
        content: [{ type: 'text', text: `The counter is at ${counter}.` }],
        structuredContent: { count: counter },
      };
    },
  );
  server.registerTool(
    'showHostileApp',
    {
      description: 'Shows an app that misbehaves.',
      annotations: { readOnlyHint: true },
      _meta: { 'ui/resourceUri': HOSTILE_APP_URI },
    },
    () => {
      count('showHostileApp');
      return { content: [{ type: 'text', text: 'Hostile app shown.' }] };
    },
  );
  server.registerTool(
    'showNetworkApp',
    {
      description: 'Shows an app that fetches a URL.',
      inputSchema: { url: z.string() },
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: NETWORK_APP_URI } },
    },
    () => {
      count('showNetworkApp');
      return { content: [{ type: 'text', text: 'Network app shown.' }] };
    },
  );
  registerOfficialSdkApp(
    server,
    count,
    () => counter,
    (value) => (counter = value),
  );
  server.registerResource('network-app', NETWORK_APP_URI, { mimeType: MCP_APP_MIME }, (uri) => ({
    contents: [
      {
        uri: uri.href,
        mimeType: MCP_APP_MIME,
        text: NETWORK_APP_HTML,
        _meta: { ui: { csp: { connectDomains: [offOrigin, 'https://*.example.com'] } } },
      },
    ],
  }));
  server.registerResource('counter-app', COUNTER_APP_URI, { mimeType: MCP_APP_MIME }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: MCP_APP_MIME, text: COUNTER_APP_HTML }],
  }));
  server.registerResource('hostile-app', HOSTILE_APP_URI, { mimeType: MCP_APP_MIME }, (uri) => ({
    contents: [
      {
        uri: uri.href,
        mimeType: MCP_APP_MIME,
        text: hostileAppHtml(offOrigin),
        _meta: { ui: { csp: { connectDomains: [offOrigin] } } },
      },
    ],
  }));
}

/**
 * `showOfficialCounter` opens the official-SDK app (tests/support/official-sdk-app/) at `start`, handing it a `link`
 * to open; it calls `incrementCounter` back. Registered with the SDK's own `registerAppTool` and
 * `registerAppResource`, as the ext-apps examples are.
 */
function registerOfficialSdkApp(
  server: McpServer,
  count: (name: string) => void,
  counter: () => number,
  setCounter: (value: number) => void,
): void {
  registerAppTool(
    server,
    'showOfficialCounter',
    {
      title: 'Official counter',
      description: 'Shows the counter app built with the official MCP Apps SDK, starting at a number.',
      inputSchema: { start: z.number(), link: z.string() },
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: OFFICIAL_APP_URI } },
    },
    ({ start }) => {
      count('showOfficialCounter');
      setCounter(start);
      return {
        content: [{ type: 'text', text: `The official counter is at ${counter()}.` }],
        structuredContent: { count: counter() },
      };
    },
  );
  registerAppResource(server, 'official-counter', OFFICIAL_APP_URI, { mimeType: RESOURCE_MIME_TYPE }, async () => ({
    contents: [{ uri: OFFICIAL_APP_URI, mimeType: RESOURCE_MIME_TYPE, text: await officialSdkAppHtml() }],
  }));
}

/** The `/other` server's own resource, each read counted as `read:<uri>`. */
export function registerOtherServerNote(server: McpServer, count: (name: string) => void): void {
  server.registerResource('other-note', OTHER_SERVER_NOTE_URI, { mimeType: 'text/plain' }, (uri) => {
    count(`read:${uri.href}`);
    return { contents: [{ uri: uri.href, text: 'a note of another server' }] };
  });
}
