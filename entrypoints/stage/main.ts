import '@/entrypoints/shared/zod-setup';
import browser from 'webextension-polyfill';
import { openReconnectingPort } from '@/lib/protocol/reconnecting-port';
import {
  stageCommandMessageSchema,
  type StageCommandMessage,
  type StageReportMessage,
} from '@/lib/protocol/runtime-message';
import { TargetChannel } from '@/lib/stage/target-channel';
import type { JsonObject } from '@/lib/protocol/json-value';
import type { TargetGrant } from '@/lib/protocol/target-artifact-events';
import { grantedOrigin } from '@/lib/authored-targets/granted-origin';
import {
  ARTIFACT_STAGE_SOURCE,
  artifactHostMessageSchema,
  type ArtifactFetchResult,
  type ArtifactHostMessage,
  type TargetArtifactLoad,
} from '@/lib/protocol/target-artifact-wire';
import { errorText } from '@/lib/protocol/error-text';
import { relayedFetch } from '@/lib/stage/relayed-fetch';
import { admittedConnect, admittedOrigin } from '@/lib/mcp/mcp-app-connect';
import { McpAppBridge, type McpAppLogEntry } from '@/lib/stage/mcp-app-bridge';
import { mcpAppCsp } from '@/lib/stage/target-csp';
import {
  MCP_APP_HOST_DISPLAY_MODES,
  MCP_APP_STAGE_SOURCE,
  mcpAppHostMessageSchema,
  type McpAppDisplayMode,
  type McpAppFetchResult,
  type McpAppHostMessage,
  type McpAppLoad,
  type McpAppToolAnswer,
} from '@/lib/protocol/mcp-app-wire';

const TARGET_TIMEOUT_MS = 15_000;
const frameHost = document.getElementById('frame-host')!;
const titleLabel = document.getElementById('target-title')!;
const statusLabel = document.getElementById('target-status')!;
const grantsLabel = document.getElementById('target-grants')!;
const appLog = document.getElementById('app-log') as HTMLDetailsElement;
const fullscreenExit = document.getElementById('fullscreen-exit') as HTMLButtonElement;

interface Hosted {
  targetId: string;
  frame: HTMLIFrameElement;
  channel: TargetChannel;
  /** An authored target's files, handed to its host page once when it asks; then undefined. */
  artifact?: TargetArtifactLoad;
  isArtifact: boolean;
  granted: TargetGrant[];
  violations: number;
  /** An older version the user opened to look at; the runtime sends it no commands. */
  preview: boolean;
  /** An MCP App: its document, handed to its host page once when it asks (then undefined), and its protocol. */
  app?: { load?: McpAppLoad; bridge: McpAppBridge; connect: string[] };
}

/** An MCP App's `tools/call` waiting for the runtime's answer, by request id. */
const appCalls = new Map<string, (answer: McpAppToolAnswer) => void>();
/**
 * An app's calls and requests made while the runtime is away (its worker restarting) wait here and go out on the
 * new port; those already sent when it went away are answered with an error, as the runtime that had them is gone.
 */
let portOpen = true;
const unsentAppAsks: Extract<StageReportMessage, { type: 'stage/app-tool-call' | 'stage/app-request' }>[] = [];
const sentAppAsks = new Set<string>();

function reportAppAsk(message: (typeof unsentAppAsks)[number]): void {
  if (!portOpen) {
    unsentAppAsks.push(message);
    return;
  }
  try {
    report(message);
    sentAppAsks.add(message.requestId);
  } catch {
    // The port is gone and its loss not yet told: the message never left, so it goes out on the new port.
    unsentAppAsks.push(message);
  }
}

function appAsksOnDisconnect(): void {
  portOpen = false;
  for (const requestId of sentAppAsks) {
    appCalls.get(requestId)?.({ error: 'The extension restarted before answering; it may or may not have been done.' });
    appCalls.delete(requestId);
  }
  sentAppAsks.clear();
}

let reconnects = 0;

function appAsksOnReconnect(): void {
  portOpen = true;
  // Visible to a test that must act only once this stage is connected to the restarted worker.
  document.documentElement.dataset.reconnects = String(++reconnects);
  for (const message of unsentAppAsks.splice(0)) if (appCalls.has(message.requestId)) reportAppAsk(message);
}

/** Violations reported per opened target: a frame that retries a blocked request in a loop must not flood the runtime. */
const MAX_VIOLATIONS = 50;

let hosted: Hosted | undefined;
const MAX_RECENT = 100;
/** What this stage did for recent tool calls; sent with every hello so a restarted runtime learns their outcome. */
const recent: Extract<StageReportMessage, { type: 'stage/hello' }>['recent'] = [];

const startedAt = Date.now();
const MAX_RECEIVED = 1000;
const received: string[] = [];

function noteReceived(callKey: string | undefined): void {
  if (!callKey || received.includes(callKey)) return;
  received.push(callKey);
  if (received.length > MAX_RECEIVED) received.splice(0, received.length - MAX_RECEIVED);
  // Visible to a test that must stop the worker only after a command has reached this page, not merely been logged.
  document.documentElement.dataset.receivedCalls = String(received.length);
}

function remember(
  callKey: string | undefined,
  type: (typeof recent)[number]['type'],
  targetId: string,
  state: JsonObject,
): void {
  if (!callKey) return;
  recent.push({ callKey, type, targetId, state });
  if (recent.length > MAX_RECENT) recent.splice(0, recent.length - MAX_RECENT);
}
function report(message: StageReportMessage): void {
  port.post(message);
}

/** The artifact host page's own messages: its request for the files, and the CSP violations it saw. */
function receiveFromArtifactHost(current: Hosted, data: unknown): boolean {
  const parsed = artifactHostMessageSchema.safeParse(data);
  if (!parsed.success) return false;
  if (parsed.data.type === 'host-ready') {
    const artifact = current.artifact;
    current.artifact = undefined;
    if (artifact)
      current.frame.contentWindow?.postMessage({ source: ARTIFACT_STAGE_SOURCE, type: 'load', artifact }, '*');
    return true;
  }
  if (parsed.data.type === 'fetch') {
    void relayFetch(current, parsed.data).then((result) => current.frame.contentWindow?.postMessage(result, '*'));
    return true;
  }
  if (current.violations >= MAX_VIOLATIONS) return true;
  current.violations += 1;
  const { directive, blockedUrl } = parsed.data;
  report({ type: 'stage/target-csp-violation', targetId: current.targetId, directive, blockedUrl });
  return true;
}

/** A fetch an authored target makes to an origin the user granted it: checked here again, no cookies, no redirects. */
async function relayFetch(
  current: Hosted,
  request: Extract<ArtifactHostMessage, { type: 'fetch' }>,
): Promise<ArtifactFetchResult> {
  const answer = { source: ARTIFACT_STAGE_SOURCE, type: 'fetch-result', id: request.id } as const;
  const relayed = await relayedFetch(
    request,
    (url) => grantedOrigin(url, current.granted),
    'This origin was not granted.',
  );
  return { ...answer, ...relayed };
}

/**
 * A fetch an MCP App makes: made only to an origin its resource declared and the user granted, else refused with
 * the reason (and reported as the policy violation it is, as a blocked request of an authored target is).
 */
async function relayAppFetch(
  current: Hosted,
  connect: readonly string[],
  request: Extract<McpAppHostMessage, { type: 'fetch' }>,
): Promise<McpAppFetchResult> {
  const answer = { source: MCP_APP_STAGE_SOURCE, type: 'fetch-result', id: request.id } as const;
  const origin = originOf(request.url);
  const refusal =
    connect.length > 0
      ? `${origin} is not among the origins granted to this MCP App (${connect.join(', ')}).`
      : `${origin} was not granted to this MCP App: it reaches only origins its resource declares and you grant in the panel.`;
  const relayed = await relayedFetch(request, (url) => admittedOrigin(url, connect), refusal);
  if ('error' in relayed && relayed.error === refusal) reportViolation(current, 'connect-src', request.url);
  return { ...answer, ...relayed };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url.slice(0, 200);
  }
}

function reportViolation(current: Hosted, directive: string, blockedUrl: string): void {
  if (current.violations >= MAX_VIOLATIONS) return;
  current.violations += 1;
  report({ type: 'stage/target-csp-violation', targetId: current.targetId, directive, blockedUrl });
}

/** The MCP App host page's own messages (its request for the document, the CSP violations it saw); else the app's. */
function receiveFromMcpApp(current: Hosted, app: NonNullable<Hosted['app']>, data: unknown): void {
  const parsed = mcpAppHostMessageSchema.safeParse(data);
  if (!parsed.success) {
    app.bridge.receive(data);
    return;
  }
  if (parsed.data.type === 'host-ready') {
    const load = app.load;
    app.load = undefined;
    if (load)
      current.frame.contentWindow?.postMessage(
        {
          source: MCP_APP_STAGE_SOURCE,
          type: 'load',
          html: load.html,
          policy: mcpAppCsp(load.csp.connectDomains, load.grantedConnect),
        },
        '*',
      );
    return;
  }
  if (parsed.data.type === 'fetch') {
    void relayAppFetch(current, app.connect, parsed.data).then((result) =>
      current.frame.contentWindow?.postMessage(result, '*'),
    );
    return;
  }
  reportViolation(current, parsed.data.directive, parsed.data.blockedUrl);
}

/** The tallest an inline app may grow to, as its container dimensions tell it. */
const INLINE_MAX_HEIGHT = 4000;
/** How long the stage waits for an app to answer `ui/resource-teardown` before it removes it anyway. */
const TEARDOWN_WAIT_MS = 3_000;
/** Lines of an app's log (`notifications/message`) the stage keeps and shows; older ones are counted only. */
const MAX_LOG_LINES = 50;

/** The current app's display mode and the height it last asked for (kept for its return to inline). */
let displayMode: McpAppDisplayMode = 'inline';
let inlineHeight: string = '';

function colorScheme(): 'light' | 'dark' {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The space the app has: the stage's width and up to a tall maximum inline, the whole tab in full screen. */
function containerDimensions(): JsonObject {
  return displayMode === 'fullscreen'
    ? { width: frameHost.clientWidth, height: frameHost.clientHeight }
    : { width: frameHost.clientWidth, maxHeight: INLINE_MAX_HEIGHT };
}

/**
 * Shows the current app inline (under the stage's bar, as tall as it asks) or in full screen (the stage tab is
 * the app's whole window, with only the host's way back and the app's name over it), and tells it so.
 */
function showIn(mode: McpAppDisplayMode): void {
  const current = hosted?.app ? hosted : undefined;
  if (!current?.app) return;
  displayMode = mode;
  document.body.classList.toggle('app-fullscreen', mode === 'fullscreen');
  fullscreenExit.hidden = mode !== 'fullscreen';
  fullscreenExit.textContent = `Exit full screen · ${titleLabel.textContent ?? ''}`;
  current.frame.style.height = mode === 'fullscreen' ? '' : inlineHeight;
  document.documentElement.dataset.appDisplayMode = mode;
  current.app.bridge.updateHostContext({ displayMode: mode, containerDimensions: containerDimensions() });
}

fullscreenExit.addEventListener('click', () => showIn('inline'));

function resetDisplay(): void {
  displayMode = 'inline';
  inlineHeight = '';
  document.body.classList.remove('app-fullscreen');
  fullscreenExit.hidden = true;
  delete document.documentElement.dataset.appDisplayMode;
}

let logLines = 0;

/** An app's log line, kept in the stage bar's "App log" (the newest last), never sent to the runtime. */
function showLog(entry: McpAppLogEntry): void {
  logLines += 1;
  document.documentElement.dataset.appLogs = String(logLines);
  appLog.hidden = false;
  appLog.querySelector('summary')!.textContent = `App log (${logLines})`;
  const list = appLog.querySelector('ol')!;
  const line = document.createElement('li');
  line.textContent = `${entry.level}${entry.logger ? ` ${entry.logger}` : ''}: ${entry.text}`;
  list.append(line);
  while (list.childElementCount > MAX_LOG_LINES) list.firstElementChild?.remove();
}

function clearLog(): void {
  logLines = 0;
  delete document.documentElement.dataset.appLogs;
  appLog.hidden = true;
  appLog.open = false;
  appLog.querySelector('ol')!.replaceChildren();
}

function mcpAppBridge(targetId: string, frame: HTMLIFrameElement, load: McpAppLoad, connect: string[]): McpAppBridge {
  const bridge: McpAppBridge = new McpAppBridge({
    app: load,
    post: (message) => frame.contentWindow?.postMessage(message, '*'),
    callTool: (name, input) =>
      new Promise<McpAppToolAnswer>((resolve) => {
        const requestId = crypto.randomUUID();
        appCalls.set(requestId, resolve);
        reportAppAsk({ type: 'stage/app-tool-call', targetId, requestId, call: { name, arguments: input } });
        document.documentElement.dataset.appCalls = String(bridge.record.calls);
      }),
    request: (request) =>
      new Promise<McpAppToolAnswer>((resolve) => {
        const requestId = crypto.randomUUID();
        appCalls.set(requestId, resolve);
        reportAppAsk({ type: 'stage/app-request', targetId, requestId, request });
      }),
    onSize: ({ height }) => {
      if (height === undefined) return;
      inlineHeight = `${Math.min(Math.max(height, 100), INLINE_MAX_HEIGHT)}px`;
      if (displayMode === 'inline') frame.style.height = inlineHeight;
    },
    showIn,
    onLog: showLog,
    onRefused: (reason) =>
      report({ type: 'stage/target-error', targetId, message: `The MCP App sent something refused: ${reason}` }),
    onInitialized: () => {
      statusLabel.textContent = 'ready';
      document.documentElement.dataset.appResultDelivered = 'true';
    },
    hostContext: {
      theme: colorScheme(),
      displayMode: 'inline',
      availableDisplayModes: [...MCP_APP_HOST_DISPLAY_MODES],
      platform: 'web',
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: 'splitbrain',
      containerDimensions: containerDimensions(),
      toolInfo: { tool: load.tool },
    },
    admittedConnect: connect,
  });
  return bridge;
}

/** The current app's context follows the stage: its colour scheme and the size of its container. */
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () =>
  hosted?.app?.bridge.updateHostContext({ theme: colorScheme() }),
);
new ResizeObserver(() => hosted?.app?.bridge.updateHostContext({ containerDimensions: containerDimensions() })).observe(
  frameHost,
);

/**
 * Asks the app in the stage, if one is there, to tear down before it goes (`ui/resource-teardown`), waiting at most
 * `waitMs` for its answer; what it answered is kept on the page for the tests.
 */
async function teardownApp(reason: string, waitMs: number): Promise<void> {
  const app = hosted?.app;
  if (!app) return;
  const outcome = await app.bridge.teardown(reason, waitMs);
  document.documentElement.dataset.appTeardown = outcome;
}

// A closing tab cannot wait: the app is told, and whatever it answers is not awaited.
window.addEventListener('pagehide', () => void teardownApp('The stage tab is closing.', 0));

window.addEventListener('message', (event) => {
  if (!hosted || event.source !== hosted.frame.contentWindow) return;
  if (hosted.app) {
    receiveFromMcpApp(hosted, hosted.app, event.data);
    return;
  }
  if (hosted.isArtifact && receiveFromArtifactHost(hosted, event.data)) return;
  hosted.channel.receive(event.data);
  // Written once: setting the same text again on every message still costs the stage a style and layout pass.
  if (hosted.channel.isReady && statusLabel.textContent !== 'ready') statusLabel.textContent = 'ready';
});

const extensionOrigin = new URL(browser.runtime.getURL('/')).origin;

async function openTarget(
  targetId: string,
  title: string,
  url: string,
  artifact?: TargetArtifactLoad,
  preview = false,
  app?: McpAppLoad,
): Promise<void> {
  await teardownApp('The stage shows another target.', TEARDOWN_WAIT_MS);
  resetDisplay();
  clearLog();
  hosted?.channel.close('The target was replaced by another one.');
  for (const [requestId, answer] of appCalls) {
    answer({ error: 'The app was closed before its call was answered.' });
    appCalls.delete(requestId);
  }
  hosted?.frame.remove();
  const frame = document.createElement('iframe');
  // An authored target gets downloads and the clipboard only once the user granted them (never allow-same-origin).
  const grants = new Set(artifact?.granted.map((grant) => grant.permission));
  frame.setAttribute('sandbox', grants.has('download') ? 'allow-scripts allow-downloads' : 'allow-scripts');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.setAttribute('allow', grants.has('clipboard') ? 'clipboard-write' : '');
  frame.title = targetId;
  // An app is told the theme; its frame's backdrop is that theme's, not the stage's dark bar colour.
  if (app) frame.className = 'mcp-app';
  frame.src = url;
  const appConnect = app ? admittedConnect(app.csp.connectDomains, app.grantedConnect) : [];
  const channel = new TargetChannel({
    post: (message, transfer = []) => frame.contentWindow?.postMessage(message, '*', transfer),
    timeoutMs: TARGET_TIMEOUT_MS,
    newId: () => crypto.randomUUID(),
    onState: (state) => report({ type: 'stage/target-state', targetId, state }),
    onError: (message) => report({ type: 'stage/target-error', targetId, message: message.slice(0, 4000) }),
  });
  hosted = {
    targetId,
    frame,
    channel,
    isArtifact: !!artifact,
    granted: artifact?.granted ?? [],
    violations: 0,
    preview,
    ...(artifact ? { artifact } : {}),
    ...(app ? { app: { load: app, bridge: mcpAppBridge(targetId, frame, app, appConnect), connect: appConnect } } : {}),
  };
  frameHost.replaceChildren(frame);
  titleLabel.textContent = artifact
    ? `${title} · v${artifact.version}${preview ? ' (superseded)' : ''} · made in this conversation`
    : app
      ? `${title} · MCP App of ${app.serverName}`
      : title;
  grantsLabel.textContent = artifact?.granted.length
    ? `Granted: ${artifact.granted.map((grant) => (grant.origin ? `${grant.permission} ${grant.origin}` : grant.permission)).join(', ')}`
    : appConnect.length > 0
      ? `Granted: network ${appConnect.join(', ')}`
      : '';
  statusLabel.textContent = 'starting…';
  document.title = `${title} · Splitbrain stage`;
}

const port = openReconnectingPort<StageReportMessage, StageCommandMessage>({
  name: 'stage',
  connect: (name) => browser.runtime.connect({ name }),
  schema: stageCommandMessageSchema,
  onMessage: async (command) => {
    if (command.type !== 'stage/retire' && command.type !== 'stage/app-tool-result') noteReceived(command.callKey);
    if (command.type === 'stage/retire') {
      port.close();
      void teardownApp('Another stage tab took over.', TEARDOWN_WAIT_MS);
      hosted?.channel.close('Another stage tab took over.');
      statusLabel.textContent = 'Another stage tab is in use; this one is no longer driven. You can close it.';
      return;
    }
    if (command.type === 'stage/open') {
      const { protocol, origin } = new URL(command.url);
      if (origin !== extensionOrigin && protocol !== 'http:' && protocol !== 'https:') {
        report({ type: 'stage/error', jobId: command.jobId, error: `Refusing to load a target from ${command.url}.` });
        return;
      }
      await openTarget(
        command.targetId,
        command.title,
        command.url,
        command.artifact,
        command.preview ?? false,
        command.mcpApp,
      );
      remember(command.callKey, 'open', command.targetId, {});
      report({ type: 'stage/state', jobId: command.jobId, state: {} });
      return;
    }
    if (command.type === 'stage/app-tool-result') {
      appCalls.get(command.requestId)?.(command.answer);
      appCalls.delete(command.requestId);
      sentAppAsks.delete(command.requestId);
      return;
    }
    if (hosted?.app && hosted.targetId === command.targetId) {
      report({ type: 'stage/error', jobId: command.jobId, error: 'An MCP App takes no target commands.' });
      return;
    }
    if (!hosted || hosted.targetId !== command.targetId || hosted.preview) {
      report({
        type: 'stage/error',
        jobId: command.jobId,
        error: `Target "${command.targetId}" is not open in the stage.`,
      });
      return;
    }
    const { type } = command.message;
    try {
      const state = await hosted.channel.send(type === 'apply' ? { type, payload: command.message.payload } : { type });
      remember(command.callKey, type, command.targetId, state);
      report({ type: 'stage/state', jobId: command.jobId, state });
    } catch (error) {
      report({
        type: 'stage/error',
        jobId: command.jobId,
        error: errorText(error),
      });
    }
  },
  onDisconnect: appAsksOnDisconnect,
  onReconnect: () => {
    hello();
    appAsksOnReconnect();
  },
});

/** Sent on every new port, so a restarted runtime learns what this stage did and holds. */
function hello(): void {
  report({
    type: 'stage/hello',
    recent,
    received,
    startedAt,
    ...(hosted ? { activeTargetId: hosted.targetId } : {}),
    ...(hosted?.preview ? { previewing: true } : {}),
    ...(hosted?.app ? { activeApp: true } : {}),
  });
}

hello();
