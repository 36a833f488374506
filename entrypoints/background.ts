import '@/entrypoints/shared/zod-setup';
import browser, { type Runtime as BrowserRuntime } from 'webextension-polyfill';
import { targetCatalogSchema, TARGET_CATALOG_PATH, type CatalogEntry, type TargetCatalog } from '@/lib/manifest/target-catalog';
import { checkRegistration, mergeCatalog, userTargetListSchema, type UserTarget } from '@/lib/manifest/user-targets';
import type { JsonObject } from '@/lib/protocol/json-value';
import { runtimeRequestSchema, subscriberMessageSchema, type RuntimeRequest, type RuntimeResponse, type TargetsPortMessage } from '@/lib/protocol/runtime-message';
import { DexieEventStore } from '@/lib/storage/dexie-event-store';
import { Runtime, type ToolRecovery } from '@/lib/runtime/runtime';
import { StageLink } from '@/lib/runtime/stage-link';
import { executeTool } from '@/lib/tools/tool-router';
import { createReplayStage, NOT_RECORDED } from '@/lib/tools/replay-stage';
import { jsonObjectSchema } from '@/lib/protocol/json-value';
import { openPanelOnCommand } from '@/entrypoints/shared/open-panel-on-command';

const ORPHAN_GRACE_MS = 10_000;
const USER_TARGETS_KEY = 'userTargets';
const valuesKey = (targetId: string) => `targetValues:${targetId}`;

export default defineBackground(() => {
  // Registered first and synchronously, so the shortcut wakes a stopped worker (Firefox opens its sidebar itself).
  if (import.meta.env.BROWSER !== 'firefox') openPanelOnCommand();
  const newId = () => crypto.randomUUID();
  const targetsPorts = new Set<BrowserRuntime.Port>();

  let builtInPromise: Promise<TargetCatalog> | undefined;
  const loadBuiltIn = () =>
    (builtInPromise ??= fetch(browser.runtime.getURL(`/${TARGET_CATALOG_PATH}` as '/')).then(async (response) => {
      const parsed = targetCatalogSchema.safeParse(await response.json());
      if (!parsed.success) throw new Error(`The target catalog is broken: ${parsed.error.issues[0]?.message}`);
      return parsed.data;
    }));
  const loadUserTargets = async (): Promise<UserTarget[]> => {
    const stored = await browser.storage.local.get(USER_TARGETS_KEY);
    const parsed = userTargetListSchema.safeParse(stored[USER_TARGETS_KEY] ?? []);
    return parsed.success ? parsed.data : [];
  };
  const loadCatalog = async () => mergeCatalog(await loadBuiltIn(), await loadUserTargets());

  const savedValues = async (targetId: string): Promise<JsonObject | undefined> => {
    const stored = await browser.storage.local.get(valuesKey(targetId));
    const parsed = jsonObjectSchema.safeParse(stored[valuesKey(targetId)]);
    return parsed.success ? parsed.data : undefined;
  };

  const onTargetState = (targetId: string, state: JsonObject) => {
    // A target that was just opened reports no values yet; that must not overwrite the saved ones.
    if (Object.keys(state).length > 0) void browser.storage.local.set({ [valuesKey(targetId)]: state });
    const message: TargetsPortMessage = { type: 'target-state', targetId, state };
    for (const port of targetsPorts) port.postMessage(message);
  };

  const stage = new StageLink({
    openStageTab: async () => {
      await browser.tabs.create({ url: browser.runtime.getURL('/stage.html'), active: true });
    },
    stageIsOpen: async () => {
      const stageUrl = browser.runtime.getURL('/stage.html');
      if (import.meta.env.BROWSER === 'firefox') return browser.extension.getViews({ type: 'tab' }).some((view) => view.location.href.startsWith(stageUrl));
      const runtimeWithContexts = (globalThis as unknown as { chrome: { runtime: { getContexts(filter: { contextTypes: string[]; documentUrls: string[] }): Promise<unknown[]> } } }).chrome.runtime;
      return (await runtimeWithContexts.getContexts({ contextTypes: ['TAB'], documentUrls: [stageUrl] })).length > 0;
    },
    entryUrl: (entry: CatalogEntry) => ('entryPath' in entry ? browser.runtime.getURL(`/${entry.entryPath}` as '/') : entry.entryUrl),
    onState: onTargetState,
    newId,
    connectTimeoutMs: 15_000,
    jobTimeoutMs: 20_000,
    reconnectGraceMs: 5_000,
    stageGoneAfterMs: 1_500,
  });

  const runTool = async (toolName: string, input: unknown, callKey?: string) =>
    executeTool(toolName, input, { catalog: await loadCatalog(), stage: callKey ? stage.forToolCall(callKey) : stage, savedValues });

  const recoverTool = async (toolName: string, input: unknown, callKey: string, startedAt: number): Promise<ToolRecovery> => {
    if (await stage.neverReached(callKey, startedAt)) return { kind: 'never-reached' };
    const results = await stage.recordedResults(callKey);
    if (results.length === 0) return { kind: 'unknown' };
    const output = await executeTool(toolName, input, { catalog: await loadCatalog(), stage: createReplayStage(results), savedValues });
    return output.error === NOT_RECORDED ? { kind: 'unknown' } : { kind: 'recovered', output };
  };

  const runtime = new Runtime({ store: new DexieEventStore(), executeTool: runTool, recoverTool, now: () => Date.now(), newId });

  const isOwnPage = (sender: BrowserRuntime.MessageSender) =>
    sender.id === browser.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(browser.runtime.getURL('/'));

  async function registerTarget(entryUrl: string, manifest: unknown) {
    const registration = checkRegistration(entryUrl, manifest, await loadBuiltIn());
    if (!registration.ok) throw new Error(registration.error);
    const others = (await loadUserTargets()).filter((target) => target.manifest.id !== registration.target.manifest.id);
    await browser.storage.local.set({ [USER_TARGETS_KEY]: [...others, registration.target] });
    return { targetId: registration.target.manifest.id };
  }

  async function handle(request: RuntimeRequest): Promise<unknown> {
    switch (request.type) {
      case 'events/append':
        return { lastSeq: await runtime.append(request.sessionId, request.events, request.batchId) };
      case 'events/read':
        return { events: await runtime.read(request.sessionId, request.afterSeq) };
      case 'tool/execute':
        return runtime.executeTool(request);
      case 'tool/manual':
        return { output: await runTool(request.toolName, request.input) };
      case 'sessions/list':
        return { sessions: await runtime.listSessions() };
      case 'session/delete':
        await runtime.deleteSession(request.sessionId);
        return { deleted: request.sessionId };
      case 'targets/list': {
        const activeTargetId = await stage.activeTargetId();
        return { catalog: await loadCatalog(), activeTargetId, values: activeTargetId ? ((await savedValues(activeTargetId)) ?? null) : null };
      }
      case 'targets/register':
        return registerTarget(request.entryUrl, request.manifest);
      case 'targets/unregister': {
        const remaining = (await loadUserTargets()).filter((target) => target.manifest.id !== request.targetId);
        await browser.storage.local.set({ [USER_TARGETS_KEY]: remaining });
        return { removed: request.targetId };
      }
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
    if (port.name === 'targets') {
      targetsPorts.add(port);
      port.onDisconnect.addListener(() => targetsPorts.delete(port));
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

});
