import '@/entrypoints/shared/zod-setup';
import browser, { type Runtime as BrowserRuntime } from 'webextension-polyfill';
import { defineBackground } from 'wxt/utils/define-background';
import { TargetRegistry } from '@/lib/manifest/target-registry';
import type { TargetsPortMessage } from '@/lib/protocol/runtime-message';
import { JobHostLink } from '@/lib/runtime/job-host-link';
import { Runtime } from '@/lib/runtime/runtime';
import { answerRuntimeRequest, runtimeHandlers } from '@/lib/runtime/runtime-handlers';
import { StageLink } from '@/lib/runtime/stage-link';
import { attachSubscriber } from '@/lib/runtime/subscriber-session';
import { serveCallPort } from '@/lib/runtime/serve-call-port';
import { TargetValues } from '@/lib/runtime/target-values';
import { PageLink } from '@/lib/runtime/page-link';
import { storeBytes } from '@/lib/files/store-bytes';
import { SiteModesStore } from '@/lib/settings/site-modes-store';
import { browserPagePlatform } from '@/entrypoints/shared/page-platform-browser';
import { BudgetGuard } from '@/lib/runtime/budget-guard';
import { PanelVisibility } from '@/lib/notify/panel-visibility';
import { WaitingNotifier } from '@/lib/notify/waiting-notifier';
import { ApprovalPolicyStore } from '@/lib/settings/approval-policy-store';
import { UsageSettingsStore } from '@/lib/settings/usage-settings-store';
import { targetTools } from '@/lib/runtime/target-tools';
import { toolRoutes } from '@/lib/runtime/tool-routes';
import { stageTargetHooks } from '@/lib/runtime/stage-target-hooks';
import { stageActions } from '@/lib/runtime/stage-actions';
import { extensionKeyValueStore } from '@/entrypoints/shared/extension-key-value-store';
import { jobHostExists, openJobHost } from '@/entrypoints/shared/job-host-document';
import { openPanelOnCommand } from '@/entrypoints/shared/open-panel-on-command';
import {
  notificationsPermitted,
  openPanelOnNotificationClick,
  showNotification,
  shownNotifications,
} from '@/entrypoints/shared/browser-notifications';
import { openStageTab, stageTabIsOpen } from '@/entrypoints/shared/stage-tab';
import { fetchBuiltInTargetCatalog } from '@/entrypoints/shared/built-in-target-catalog';
import { extensionUrl } from '@/entrypoints/shared/extension-url';
import { openEventStores } from '@/entrypoints/shared/open-event-stores';
import { isOwnExtensionPage } from '@/entrypoints/shared/is-own-extension-page';
import { portLink } from '@/entrypoints/shared/port-link';
import { randomHex } from '@/entrypoints/shared/random-hex';

export default defineBackground(() => {
  // Registered first and synchronously, so the shortcut wakes a stopped worker (Firefox opens its sidebar itself).
  if (import.meta.env.BROWSER !== 'firefox') openPanelOnCommand();
  openPanelOnNotificationClick();
  Object.assign(globalThis, { splitbrainShownNotifications: shownNotifications });
  const newId = () => crypto.randomUUID();
  const targetsPorts = new Set<BrowserRuntime.Port>();
  const registry = new TargetRegistry({
    fetchBuiltIn: fetchBuiltInTargetCatalog,
    storage: extensionKeyValueStore,
  });
  const policies = new ApprovalPolicyStore(extensionKeyValueStore);
  const usageSettings = new UsageSettingsStore(extensionKeyValueStore);
  const values = new TargetValues({
    read: extensionKeyValueStore.get,
    write: (items) => browser.storage.local.set(items),
    delayMs: 200,
    onError: (error) => console.warn('Could not save the target values:', error),
  });
  // The last values must not wait for a timer that a stopping worker would never run.
  browser.runtime.onSuspend.addListener(() => void values.flush());

  const stage = new StageLink({
    openStageTab,
    stageIsOpen: stageTabIsOpen,
    ...stageTargetHooks({ extensionUrl, runtime: (): Runtime => runtime, newId, now: () => Date.now() }),
    onState: (targetId, state) => {
      values.remember(targetId, state);
      const message: TargetsPortMessage = { type: 'target/state', targetId, state };
      for (const port of targetsPorts) port.postMessage(message);
    },
    newId,
    connectTimeoutMs: 15_000,
    jobTimeoutMs: 20_000,
    reconnectGraceMs: 5_000,
    stageGoneAfterMs: 1_500,
  });
  const targets = targetTools({
    registry,
    values,
    authoredTargets: () => runtime.targetArtifacts,
  });

  /** A session's snapshot is written again once this many durable events follow it, a while after the last. */
  const SNAPSHOT_EVERY_EVENTS = 500;
  const SNAPSHOT_DELAY_MS = 2_000;
  const jobHost = new JobHostLink({
    openHost: openJobHost,
    hostExists: jobHostExists,
    connectTimeoutMs: 10_000,
    hostGoneAfterMs: 1_500,
  });

  const panels = new PanelVisibility();
  const notifier = new WaitingNotifier({
    visibility: panels,
    switchedOn: async () => (await usageSettings.load()).browserNotifications,
    permitted: notificationsPermitted,
    conversationTitle: async (sessionId) =>
      (await runtime.listSessions()).find((session) => session.sessionId === sessionId)?.title ?? '',
    show: showNotification,
  });
  const { store, blobStore } = openEventStores();
  const siteModes = new SiteModesStore(extensionKeyValueStore);
  const pages = new PageLink({
    platform: browserPagePlatform,
    siteMode: (origin) => siteModes.mode(origin),
    storeScreenshot: async (bytes, sessionId, ownerId) => {
      const stored = await storeBytes(blobStore, { bytes, name: 'screenshot.png', sessionId, ownerId });
      return stored.ok ? stored.ref : undefined;
    },
    now: () => Date.now(),
    newId,
    randomHex,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const runtime = new Runtime({
    store,
    blobStore,
    ...toolRoutes({ pages, stage, targets, policy: () => policies.load() }),
    now: () => Date.now(),
    newId,
    askExpiresAfterMs: async () => (await policies.load()).questionExpiresAfterSeconds * 1000,
    snapshots: {
      every: SNAPSHOT_EVERY_EVENTS,
      delayMs: SNAPSHOT_DELAY_MS,
      setTimer: (run, delay) => void setTimeout(run, delay),
    },
    jobHost,
    onRecorded: (event) => void notifier.recorded(event).catch(() => undefined),
  });
  const handlers = runtimeHandlers({
    runtime,
    targets: {
      catalog: () => targets.catalog(),
      register: registry.register.bind(registry),
      unregister: registry.unregister.bind(registry),
    },
    ...stageActions({ stage, targets, authoredTargets: () => runtime.targetArtifacts }),
    activeTargetId: () => stage.activeTargetId(),
    savedValues: (targetId) => values.saved(targetId),
    pages,
    budgets: new BudgetGuard({
      store,
      settings: () => usageSettings.load(),
      now: () => Date.now(),
      newId,
      recordNotifications: (sessionId, drafts) => runtime.recordNotifications(sessionId, drafts),
    }),
  });

  browser.runtime.onMessage.addListener((message: unknown, sender: BrowserRuntime.MessageSender) =>
    isOwnExtensionPage(sender) ? answerRuntimeRequest(handlers, message) : undefined,
  );

  browser.runtime.onConnect.addListener((port) => {
    if (!port.sender || !isOwnExtensionPage(port.sender)) return port.disconnect();
    const link = portLink(port);
    if (port.name === 'calls') {
      serveCallPort(link, (request) => answerRuntimeRequest(handlers, request));
    } else if (port.name === 'stage') {
      stage.attach(link);
      // A stage that closes or is retired sends no more values: write the last ones now.
      port.onDisconnect.addListener(() => void values.flush());
    } else if (port.name === 'jobs') {
      jobHost.attach(link);
    } else if (port.name === 'targets') {
      targetsPorts.add(port);
      port.onDisconnect.addListener(() => targetsPorts.delete(port));
    } else if (port.name === 'events') {
      attachSubscriber(link, {
        runtime,
        newId,
        setTimer: (run, delayMs) => setTimeout(run, delayMs),
        orphanGraceMs: 10_000,
        visibility: panels,
      });
    }
  });
});
