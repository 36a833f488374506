import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page, type WebWorker } from 'puppeteer-core';
import type { PageObservationData, PageReplyFor, PageRequest } from '@/lib/protocol/page-wire';
import { pageReplySchemaFor, pageWireErrorSchema } from '@/lib/protocol/page-wire';
import { CHROMIUM } from './extension-harness';

/** The production build's content scripts, exactly as the extension ships them. */
export const BUILT_CONTENT_SCRIPTS = resolve(import.meta.dirname, '../../.output/chrome-mv3/content-scripts');

/*
 * A harness extension around the built bundle: the same document_start registration of the main-world bridge, the
 * same `scripting.executeScript` injection and the same `tabs.sendMessage(tabId, message, { frameId })` wire as the
 * runtime, with host access granted in its manifest (headless Chromium cannot answer the optional-permission prompt
 * the real extension asks for).
 */
const HARNESS_WORKER = `
// As entrypoints/shared/page-tools-bridge-registration.ts: the bridge also runs from document_start.
self.ready = chrome.scripting.registerContentScripts([{ id: 'bridge', matches: ['<all_urls>'], js: ['content-scripts/page-tools-bridge.js'], runAt: 'document_start', world: 'MAIN', allFrames: true }]);
self.inject = async (tabId) => {
  await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['content-scripts/page-agent.js'] });
  await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['content-scripts/page-tools-bridge.js'], world: 'MAIN' });
};
self.send = (tabId, frameId, message) => chrome.tabs.sendMessage(tabId, message, { frameId });
self.frames = (tabId) => chrome.webNavigation.getAllFrames({ tabId });
self.tabFor = async (url) => (await chrome.tabs.query({})).find((tab) => tab.url === url)?.id;
self.zoom = (tabId, factor) => chrome.tabs.setZoom(tabId, factor);
self.capture = (windowId) => chrome.tabs.captureVisibleTab(windowId, { format: 'png' });
self.windowOf = async (tabId) => (await chrome.tabs.get(tabId)).windowId;
`;

function harnessExtension(contentScripts: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'splitbrain-page-harness-'));
  mkdirSync(join(folder, 'content-scripts'));
  for (const file of ['page-agent.js', 'page-tools-bridge.js'])
    copyFileSync(join(contentScripts, file), join(folder, 'content-scripts', file));
  writeFileSync(join(folder, 'harness.js'), HARNESS_WORKER);
  writeFileSync(
    join(folder, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'Page agent harness',
      version: '1',
      permissions: ['scripting', 'tabs', 'webNavigation'],
      // captureVisibleTab needs <all_urls> (or activeTab): per-origin host access is not enough for it.
      host_permissions: ['<all_urls>'],
      background: { service_worker: 'harness.js' },
    }),
  );
  return folder;
}

export interface PageAgentSession {
  browser: Browser;
  worker: WebWorker;
  /** Opens a URL in a new tab, injects the agent into every frame, returns the page and its tab id. */
  open(url: string): Promise<{ page: Page; tabId: number }>;
  inject(tabId: number): Promise<void>;
  send<Request extends PageRequest>(
    tabId: number,
    request: Request,
    frameId?: number,
  ): Promise<PageReplyFor<Request['type']>>;
  observe(
    tabId: number,
    options?: Omit<Extract<PageRequest, { type: 'page/observe' }>, 'type'>,
    frameId?: number,
  ): Promise<PageObservationData>;
  close(): Promise<void>;
}

async function sendPageRequest<Request extends PageRequest>(
  worker: WebWorker,
  tabId: number,
  request: Request,
  frameId: number,
): Promise<PageReplyFor<Request['type']>> {
  const reply = await worker.evaluate(
    (id, message, frame) =>
      (self as unknown as { send(id: number, frame: number, message: unknown): Promise<unknown> }).send(
        id,
        frame,
        message,
      ),
    tabId,
    request as never,
    frameId,
  );
  const typed = pageReplySchemaFor[request.type].safeParse(reply);
  const error = pageWireErrorSchema.safeParse(reply);
  if (!typed.success && !error.success)
    throw new Error(`Unexpected reply to ${request.type}: ${JSON.stringify(reply).slice(0, 2000)}`);
  return (typed.success ? typed.data : error.data) as PageReplyFor<Request['type']>;
}

export async function launchPageAgent(contentScripts = BUILT_CONTENT_SCRIPTS): Promise<PageAgentSession> {
  const extension = harnessExtension(contentScripts);
  const profile = mkdtempSync(join(tmpdir(), 'splitbrain-page-profile-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    enableExtensions: [extension],
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  const target = await browser.waitForTarget((candidate) => candidate.type() === 'service_worker', { timeout: 30_000 });
  const worker = (await target.worker())!;
  await worker.evaluate(() => (self as unknown as { ready: Promise<void> }).ready);
  const session: PageAgentSession = {
    browser,
    worker,
    open: async (url) => {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: 'load' });
      const tabId = await worker.evaluate(
        (address) => (self as unknown as { tabFor(url: string): Promise<number> }).tabFor(address),
        page.url(),
      );
      await session.inject(tabId);
      return { page, tabId };
    },
    inject: (tabId) =>
      worker.evaluate((id) => (self as unknown as { inject(id: number): Promise<void> }).inject(id), tabId),
    send: (tabId, request, frameId = 0) => sendPageRequest(worker, tabId, request, frameId),
    observe: async (tabId, options = {}, frameId = 0) => {
      const reply = await session.send(tabId, { type: 'page/observe', ...options }, frameId);
      if (reply.type !== 'page/observation') throw new Error(`Observation failed: ${JSON.stringify(reply)}`);
      return reply.observation;
    },
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
      rmSync(extension, { recursive: true, force: true });
    },
  };
  return session;
}

/** The expectation the runtime copies from its observation table for an action on `ref` (or a point). */
export function expectationFor(observation: PageObservationData, ref?: string, pointRef?: string) {
  const info = ref === undefined ? undefined : observation.refs[ref];
  return {
    documentId: observation.documentId,
    modal: observation.modal,
    viewport: observation.viewport,
    ...(info === undefined
      ? {}
      : { ref: { role: info.role, name: info.name, checked: info.checked, inputType: info.inputType } }),
    ...(pointRef === undefined ? {} : { pointRef }),
  };
}

/** The ref of the first line of `role "name"` in the snapshot. */
export function refOf(observation: PageObservationData, role: string, name: string): string {
  const entry = Object.entries(observation.refs).find(([, info]) => info.role === role && info.name === name);
  if (entry === undefined) throw new Error(`No ${role} "${name}" in:\n${observation.snapshot}`);
  return entry[0];
}
