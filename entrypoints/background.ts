import '@/entrypoints/shared/zod-setup';
import browser, { type Runtime as BrowserRuntime } from 'webextension-polyfill';
import { targetCatalogSchema, TARGET_CATALOG_PATH, type TargetCatalog } from '@/lib/manifest/target-catalog';
import { runtimeRequestSchema, subscriberMessageSchema, type RuntimeRequest, type RuntimeResponse } from '@/lib/protocol/runtime-message';
import { DexieEventStore } from '@/lib/storage/dexie-event-store';
import { Runtime } from '@/lib/runtime/runtime';
import { StageLink } from '@/lib/runtime/stage-link';
import { executeTool } from '@/lib/tools/tool-router';

const ORPHAN_GRACE_MS = 10_000;

export default defineBackground(() => {
  const newId = () => crypto.randomUUID();
  let catalogPromise: Promise<TargetCatalog> | undefined;
  const loadCatalog = () =>
    (catalogPromise ??= fetch(browser.runtime.getURL(`/${TARGET_CATALOG_PATH}` as '/')).then(async (response) => {
      const parsed = targetCatalogSchema.safeParse(await response.json());
      if (!parsed.success) throw new Error(`The target catalog is broken: ${parsed.error.issues[0]?.message}`);
      return parsed.data;
    }));

  const stage = new StageLink({
    openStageTab: async () => {
      await browser.tabs.create({ url: browser.runtime.getURL('/stage.html'), active: true });
    },
    newId,
    connectTimeoutMs: 15_000,
    jobTimeoutMs: 20_000,
    reconnectGraceMs: 400,
  });

  const runtime = new Runtime({
    store: new DexieEventStore(),
    executeTool: async (toolName, input) => executeTool(toolName, input, { catalog: await loadCatalog(), stage }),
    now: () => Date.now(),
    newId,
  });

  const isOwnPage = (sender: BrowserRuntime.MessageSender) =>
    sender.id === browser.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(browser.runtime.getURL('/'));

  async function handle(request: RuntimeRequest): Promise<unknown> {
    switch (request.type) {
      case 'events/append':
        return { lastSeq: await runtime.append(request.sessionId, request.events, request.batchId) };
      case 'events/read':
        return { events: await runtime.read(request.sessionId, request.afterSeq) };
      case 'tool/execute':
        return runtime.executeTool(request);
      case 'sessions/list':
        return { sessions: await runtime.listSessions() };
      case 'targets/list':
        return { catalog: await loadCatalog(), activeTargetId: await stage.activeTargetId() };
    }
  }

  browser.runtime.onMessage.addListener((message: unknown, sender: BrowserRuntime.MessageSender): Promise<RuntimeResponse> | undefined => {
    if (!isOwnPage(sender)) return undefined;
    const parsed = runtimeRequestSchema.safeParse(message);
    if (!parsed.success) return Promise.resolve({ ok: false, error: `Invalid runtime request: ${parsed.error.issues[0]?.message}` });
    return handle(parsed.data).then(
      (result) => ({ ok: true, result }),
      (error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });

  browser.runtime.onConnect.addListener((port) => {
    if (!port.sender || !isOwnPage(port.sender)) {
      port.disconnect();
      return;
    }
    if (port.name === 'stage') {
      stage.attach({
        postMessage: (message) => port.postMessage(message),
        onMessage: (listener) => port.onMessage.addListener(listener),
        onDisconnect: (listener) => port.onDisconnect.addListener(() => listener()),
      });
      return;
    }
    if (port.name === 'events') attachSubscriber(port);
  });

  function attachSubscriber(port: BrowserRuntime.Port): void {
    const ownerId = newId();
    const sessions = new Set<string>();
    const unsubscribers: (() => void)[] = [];
    port.onMessage.addListener(async (raw: unknown) => {
      const parsed = subscriberMessageSchema.safeParse(raw);
      if (!parsed.success) {
        port.postMessage({ type: 'error', message: `Invalid subscriber message: ${parsed.error.issues[0]?.message}` });
        return;
      }
      const message = parsed.data;
      if (message.type === 'own-turn') {
        runtime.claimTurn(ownerId, message.turnId);
        return;
      }
      if (message.type === 'release-turn') {
        runtime.releaseTurn(ownerId, message.turnId);
        return;
      }
      sessions.add(message.sessionId);
      const { generation } = message;
      const subscription = await runtime.subscribe(message.sessionId, (event) => port.postMessage({ type: 'event', generation, event }));
      unsubscribers.push(subscription.unsubscribe);
      port.postMessage({ type: 'snapshot', sessionId: message.sessionId, generation, snapshotSeq: subscription.snapshotSeq, events: subscription.snapshot });
      setTimeout(() => void runtime.interruptOrphanedTurns(message.sessionId, 'The side panel that ran this turn is gone.'), ORPHAN_GRACE_MS);
    });
    port.onDisconnect.addListener(() => {
      for (const unsubscribe of unsubscribers) unsubscribe();
      void runtime.ownerGone(ownerId, sessions, 'The side panel was closed during this turn.');
    });
  }

  if (import.meta.env.BROWSER === 'firefox') {
    browser.browserAction.onClicked.addListener(() => void browser.sidebarAction.toggle());
  } else {
    void (globalThis as unknown as { chrome: { sidePanel: { setPanelBehavior(options: { openPanelOnActionClick: boolean }): Promise<void> } } }).chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
  }
});
