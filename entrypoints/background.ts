import '@/entrypoints/shared/zod-setup';
import browser, { type Runtime as BrowserRuntime } from 'webextension-polyfill';
import { defineBackground } from 'wxt/utils/define-background';
import {
  targetCatalogSchema,
  TARGET_CATALOG_PATH,
  type CatalogEntry,
  type TargetCatalog,
} from '@/lib/manifest/target-catalog';
import { checkRegistration, mergeCatalog, userTargetListSchema, type UserTarget } from '@/lib/manifest/user-targets';
import type { JsonObject } from '@/lib/protocol/json-value';
import {
  runtimeRequestSchema,
  subscriberMessageSchema,
  type RuntimeRequest,
  type RuntimeResponse,
  type TargetsPortMessage,
} from '@/lib/protocol/runtime-message';
import { CoalescingWriter } from '@/lib/storage/coalescing-writer';
import { DexieEventStore } from '@/lib/storage/dexie-event-store';
import { MemoryEventStore } from '@/lib/runtime/memory-event-store';
import { Runtime, type ToolRecovery } from '@/lib/runtime/runtime';
import { StageLink } from '@/lib/runtime/stage-link';
import { executeTool } from '@/lib/tools/tool-router';
import { createReplayStage, NOT_RECORDED } from '@/lib/tools/replay-stage';
import { jsonObjectSchema, type JsonValue } from '@/lib/protocol/json-value';
import { isClientWritable } from '@/lib/protocol/agent-event';
import {
  approvalPolicySchema,
  approvalRequirement,
  DEFAULT_APPROVAL_POLICY,
  APPROVAL_POLICY_KEY,
  APPROVAL_TOOLS,
} from '@/lib/tools/approval-policy';
import { openPanelOnCommand } from '@/entrypoints/shared/open-panel-on-command';

const ORPHAN_GRACE_MS = 10_000;
const USER_TARGETS_KEY = 'userTargets';
const valuesKey = (targetId: string) => `targetValues:${targetId}`;
/** A target's values are saved at most this often; a burst of changes (a dragged slider) is one write. */
const VALUES_WRITE_DELAY_MS = 200;

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
  const readUserTargets = async (): Promise<UserTarget[]> => {
    const stored = await browser.storage.local.get(USER_TARGETS_KEY);
    const parsed = userTargetListSchema.safeParse(stored[USER_TARGETS_KEY] ?? []);
    return parsed.success ? parsed.data : [];
  };
  // Read once and kept until the stored list changes, instead of on every tool call.
  let catalogPromise: Promise<{ catalog: TargetCatalog; userTargets: UserTarget[] }> | undefined;
  const loadTargets = () => {
    const loading = (catalogPromise ??= Promise.all([loadBuiltIn(), readUserTargets()]).then(
      ([builtIn, userTargets]) => ({ catalog: mergeCatalog(builtIn, userTargets), userTargets }),
    ));
    loading.catch(() => {
      if (catalogPromise === loading) catalogPromise = undefined;
    });
    return loading;
  };
  const loadUserTargets = async () => (await loadTargets()).userTargets;
  const loadCatalog = async () => (await loadTargets()).catalog;
  const saveUserTargets = async (targets: UserTarget[]) => {
    await browser.storage.local.set({ [USER_TARGETS_KEY]: targets });
    catalogPromise = undefined;
  };
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && USER_TARGETS_KEY in changes) catalogPromise = undefined;
  });

  const valuesWriter = new CoalescingWriter<JsonObject>({
    write: (items) => browser.storage.local.set(items),
    delayMs: VALUES_WRITE_DELAY_MS,
    onError: (error) => console.warn('Could not save the target values:', error),
  });
  // The last values must not wait for a timer that a stopping worker would never run.
  browser.runtime.onSuspend.addListener(() => void valuesWriter.flush());

  const savedValues = async (targetId: string): Promise<JsonObject | undefined> => {
    const unwritten = valuesWriter.latest(valuesKey(targetId));
    if (unwritten) return unwritten;
    const stored = await browser.storage.local.get(valuesKey(targetId));
    const parsed = jsonObjectSchema.safeParse(stored[valuesKey(targetId)]);
    return parsed.success ? parsed.data : undefined;
  };

  const onTargetState = (targetId: string, state: JsonObject) => {
    // A target that was just opened reports no values yet; that must not overwrite the saved ones.
    if (Object.keys(state).length > 0) valuesWriter.set(valuesKey(targetId), state);
    const message: TargetsPortMessage = { type: 'target-state', targetId, state };
    for (const port of targetsPorts) port.postMessage(message);
  };

  const stage = new StageLink({
    openStageTab: async () => {
      await browser.tabs.create({ url: browser.runtime.getURL('/stage.html'), active: true });
    },
    stageIsOpen: async () => {
      const stageUrl = browser.runtime.getURL('/stage.html');
      if (import.meta.env.BROWSER === 'firefox')
        return browser.extension.getViews({ type: 'tab' }).some((view) => view.location.href.startsWith(stageUrl));
      const runtimeWithContexts = (
        globalThis as unknown as {
          chrome: {
            runtime: { getContexts(filter: { contextTypes: string[]; documentUrls: string[] }): Promise<unknown[]> };
          };
        }
      ).chrome.runtime;
      return (await runtimeWithContexts.getContexts({ contextTypes: ['TAB'], documentUrls: [stageUrl] })).length > 0;
    },
    entryUrl: (entry: CatalogEntry) =>
      'entryPath' in entry ? browser.runtime.getURL(`/${entry.entryPath}` as '/') : entry.entryUrl,
    onState: onTargetState,
    newId,
    connectTimeoutMs: 15_000,
    jobTimeoutMs: 20_000,
    reconnectGraceMs: 5_000,
    stageGoneAfterMs: 1_500,
  });

  const runTool = async (toolName: string, input: unknown, callKey?: string) =>
    executeTool(toolName, input, {
      catalog: await loadCatalog(),
      stage: callKey ? stage.forToolCall(callKey) : stage,
      savedValues,
    });

  const recoverTool = async (
    toolName: string,
    input: unknown,
    callKey: string,
    startedAt: number,
  ): Promise<ToolRecovery> => {
    if (await stage.neverReached(callKey, startedAt)) return { kind: 'never-reached' };
    const results = await stage.recordedResults(callKey);
    if (results.length === 0) return { kind: 'unknown' };
    const output = await executeTool(toolName, input, {
      catalog: await loadCatalog(),
      stage: createReplayStage(results),
      savedValues,
    });
    return output.error === NOT_RECORDED ? { kind: 'unknown' } : { kind: 'recovered', output };
  };

  const readApprovalPolicy = async () => {
    const stored = await browser.storage.local.get(APPROVAL_POLICY_KEY);
    const parsed = approvalPolicySchema.safeParse(stored[APPROVAL_POLICY_KEY] ?? DEFAULT_APPROVAL_POLICY);
    // A broken stored policy fails closed: every call that can need approval asks.
    return parsed.success
      ? parsed.data
      : { ...DEFAULT_APPROVAL_POLICY, tools: Object.fromEntries(APPROVAL_TOOLS.map((name) => [name, 'ask' as const])) };
  };
  // Kept in memory (a storage read per tool call shows in the round trip) and dropped whenever it changes.
  let policyPromise: ReturnType<typeof readApprovalPolicy> | undefined;
  const loadApprovalPolicy = () => (policyPromise ??= readApprovalPolicy());
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && APPROVAL_POLICY_KEY in changes) policyPromise = undefined;
  });
  const checkApproval = async (toolName: string, input: JsonValue) => {
    const catalog = await loadCatalog();
    const targetId =
      toolName === 'openTarget' &&
      input &&
      typeof input === 'object' &&
      !Array.isArray(input) &&
      typeof input.targetId === 'string'
        ? input.targetId
        : await stage.activeTargetId();
    const target = catalog.targets.find((entry) => entry.manifest.id === targetId)?.manifest;
    return approvalRequirement(toolName, input, { policy: await loadApprovalPolicy(), ...(target ? { target } : {}) });
  };

  // Only the benchmark's second build keeps the log in memory, to measure what the durable writes cost a tool call.
  const store = import.meta.env.WXT_MEMORY_EVENT_LOG === '1' ? new MemoryEventStore() : new DexieEventStore();
  const runtime = new Runtime({
    store,
    executeTool: runTool,
    recoverTool,
    now: () => Date.now(),
    newId,
    approvalRequirement: checkApproval,
    askExpiresAfterMs: async () => (await loadApprovalPolicy()).questionExpiresAfterSeconds * 1000,
  });

  const isOwnPage = (sender: BrowserRuntime.MessageSender) =>
    sender.id === browser.runtime.id &&
    typeof sender.url === 'string' &&
    sender.url.startsWith(browser.runtime.getURL('/'));

  async function registerTarget(entryUrl: string, manifest: unknown) {
    const registration = checkRegistration(entryUrl, manifest, await loadBuiltIn());
    if (!registration.ok) throw new Error(registration.error);
    const others = (await loadUserTargets()).filter((target) => target.manifest.id !== registration.target.manifest.id);
    await saveUserTargets([...others, registration.target]);
    return { targetId: registration.target.manifest.id };
  }

  async function handle(request: RuntimeRequest): Promise<unknown> {
    switch (request.type) {
      case 'events/append': {
        const refused = request.events.find((draft) => !isClientWritable(draft.type));
        if (refused) throw new Error(`Only the runtime records ${refused.type} events.`);
        return { lastSeq: await runtime.append(request.sessionId, request.events, request.batchId) };
      }
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
        return {
          catalog: await loadCatalog(),
          activeTargetId,
          values: activeTargetId ? ((await savedValues(activeTargetId)) ?? null) : null,
        };
      }
      case 'targets/register':
        return registerTarget(request.entryUrl, request.manifest);
      case 'approval/decide':
        return runtime.decideApproval(request);
      case 'ask/answer':
        return runtime.answerAsk(request);
      case 'command/submit':
        return runtime.submitCommand(request);
      case 'command/status':
        return runtime.commandStatus(request.sessionId, request.commandId);
      case 'command/withdraw':
        return runtime.withdrawSteer(request.sessionId, request.commandId);
      case 'steer/take':
        return { steers: await runtime.takeSteers(request.sessionId, request.turnId) };
      case 'targets/unregister': {
        const remaining = (await loadUserTargets()).filter((target) => target.manifest.id !== request.targetId);
        await saveUserTargets(remaining);
        return { removed: request.targetId };
      }
    }
  }

  browser.runtime.onMessage.addListener(
    (message: unknown, sender: BrowserRuntime.MessageSender): Promise<RuntimeResponse> | undefined => {
      if (!isOwnPage(sender)) return undefined;
      const parsed = runtimeRequestSchema.safeParse(message);
      if (!parsed.success)
        return Promise.resolve({ ok: false, error: `Invalid runtime request: ${parsed.error.issues[0]?.message}` });
      return handle(parsed.data).then(
        (result) => ({ ok: true, result }),
        (error: unknown) => ({
          ok: false,
          error: error instanceof Error ? error.message || error.name : String(error),
        }),
      );
    },
  );

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
      // A stage that closes or is retired sends no more values: write the last ones now.
      port.onDisconnect.addListener(() => void valuesWriter.flush());
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
    runtime.registerOwner(ownerId, ({ turnId, commandId }) =>
      port.postMessage({ type: 'cancel-turn', turnId, commandId }),
    );
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
      const subscription = await runtime.subscribe(message.sessionId, (event) =>
        port.postMessage({ type: 'event', generation, event }),
      );
      unsubscribers.push(subscription.unsubscribe);
      port.postMessage({
        type: 'snapshot',
        sessionId: message.sessionId,
        generation,
        snapshotSeq: subscription.snapshotSeq,
        events: subscription.snapshot,
      });
      setTimeout(
        () => void runtime.interruptOrphanedTurns(message.sessionId, 'The side panel that ran this turn is gone.'),
        ORPHAN_GRACE_MS,
      );
    });
    port.onDisconnect.addListener(() => {
      for (const unsubscribe of unsubscribers) unsubscribe();
      void runtime.ownerGone(ownerId, sessions, 'The side panel was closed during this turn.');
    });
  }
});
