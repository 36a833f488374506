import '@/entrypoints/shared/zod-setup';
import {
  MCP_APP_HOST_SOURCE,
  MCP_APP_STAGE_SOURCE,
  mcpAppFetchResultSchema,
  mcpAppHostMessageSchema,
  mcpAppStageMessageSchema,
  type McpAppFetchResult,
  type McpAppHostMessage,
} from '@/lib/protocol/mcp-app-wire';
import { RELAYED_BODY_LIMIT } from '@/lib/protocol/relayed-fetch-wire';

/**
 * The host of an MCP App's `ui://` document, in the stage's sandboxed frame: it asks the stage for the document,
 * puts the app's content security policy in force before any of it runs, then becomes the app. The app's inline
 * scripts run from blob URLs (the sandbox allows no inline script), in document order; its messages go to the stage.
 */
function postToStage(message: McpAppHostMessage): void {
  window.parent.postMessage(message, '*');
}

function enforcePolicy(policy: string): void {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = policy;
  document.head.prepend(meta);
}

/**
 * A module script is fetched in CORS mode, and one from a blob URL an opaque origin made is not something every
 * browser allows, so inline module code runs as a strict classic script inside an async function: a bundled app's
 * code, top-level await too, runs as it would; a static `import` does not.
 */
function classicCode(parsed: HTMLScriptElement): string {
  const code = parsed.textContent ?? '';
  if (parsed.type !== 'module') return code;
  return `(async () => {\n'use strict';\n${code}\n})().catch((error) => reportError(error));`;
}

/** A live copy of a parsed (inert) script: inline code from a blob, a src as given, for the policy to judge. */
function liveScript(parsed: HTMLScriptElement): HTMLScriptElement {
  const script = document.createElement('script');
  if (parsed.src) {
    if (parsed.type) script.type = parsed.type;
    script.src = parsed.src;
  } else {
    script.src = URL.createObjectURL(new Blob([classicCode(parsed)], { type: 'text/javascript' }));
  }
  script.async = false;
  return script;
}

const relayed = new Map<string, (result: McpAppFetchResult) => void>();

function receiveRelayed(event: MessageEvent): void {
  if (event.source !== window.parent) return;
  const parsed = mcpAppFetchResultSchema.safeParse(event.data);
  if (!parsed.success) return;
  relayed.get(parsed.data.id)?.(parsed.data);
  relayed.delete(parsed.data.id);
}

/** Sends a request to the stage, checked against the wire first: one the stage would drop is refused here. */
function relay(request: Request, body: string | undefined): Promise<McpAppFetchResult> {
  const id = crypto.randomUUID();
  const contentType = request.headers.get('content-type');
  const message = mcpAppHostMessageSchema.safeParse({
    source: MCP_APP_HOST_SOURCE,
    type: 'fetch',
    id,
    url: request.url,
    method: request.method,
    ...(contentType ? { contentType } : {}),
    ...(body !== undefined ? { body } : {}),
  });
  if (!message.success)
    return Promise.resolve({
      source: MCP_APP_STAGE_SOURCE,
      type: 'fetch-result',
      id,
      error: `The host relays no such request (${request.method}, at most ${RELAYED_BODY_LIMIT} characters of body).`,
    });
  return new Promise((resolve) => {
    relayed.set(id, resolve);
    postToStage(message.data);
  });
}

/**
 * The frame's own requests hit its opaque origin's CORS and the sandbox's `connect-src 'none'`, so an unmodified
 * app's fetch() of an http(s) URL goes to the stage instead, which makes it only to an origin the app's resource
 * declared and the user granted, and refuses every other with the reason. Other URLs (blob:, data:) stay local.
 */
function relayFetches(): void {
  const browserFetch = window.fetch.bind(window);
  window.addEventListener('message', receiveRelayed);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (!/^https?:$/.test(new URL(request.url).protocol)) return browserFetch(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    const result = await relay(request, body);
    if (!result.response) throw new TypeError(result.error ?? 'Failed to fetch');
    const { status, statusText, contentType, body: text } = result.response;
    return new Response(status === 204 || status === 304 || request.method === 'HEAD' ? null : text, {
      status,
      statusText,
      headers: { 'content-type': contentType },
    });
  };
}

function host(html: string, policy: string): void {
  enforcePolicy(policy);
  relayFetches();
  document.addEventListener('securitypolicyviolation', (event) =>
    postToStage({
      source: MCP_APP_HOST_SOURCE,
      type: 'csp-violation',
      directive: event.effectiveDirective.slice(0, 200),
      blockedUrl: event.blockedURI.slice(0, 2000),
    }),
  );
  // Parsed in an inert document (nothing in it runs), then moved in; a document's own meta policies or refreshes
  // are dropped, so only the host's policy holds.
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const scripts = [...parsed.querySelectorAll('script')];
  for (const element of [...scripts, ...parsed.querySelectorAll('meta[http-equiv], base')]) element.remove();
  if (parsed.title) document.title = parsed.title;
  document.head.append(...[...parsed.head.childNodes].filter((node) => node.nodeName !== 'TITLE'));
  document.body.replaceChildren(...parsed.body.childNodes);
  for (const script of scripts) document.body.append(liveScript(script));
}

function receive(event: MessageEvent): void {
  if (event.source !== window.parent) return;
  const parsed = mcpAppStageMessageSchema.safeParse(event.data);
  if (!parsed.success) return;
  window.removeEventListener('message', receive);
  host(parsed.data.html, parsed.data.policy);
}

window.addEventListener('message', receive);
postToStage({ source: MCP_APP_HOST_SOURCE, type: 'host-ready' });
