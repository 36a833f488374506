import '@/entrypoints/shared/zod-setup';
import browser, { type Runtime as BrowserRuntime } from 'webextension-polyfill';
import { defineBackground } from 'wxt/utils/define-background';
import type { TargetsPortMessage } from '@/lib/protocol/runtime-message';
import { composeRuntime } from '@/lib/runtime/compose-runtime';
import { answerRuntimeRequest } from '@/lib/runtime/runtime-handlers';
import { serveCallPort } from '@/lib/runtime/serve-call-port';
import { browserPagePlatform } from '@/entrypoints/shared/page-platform-browser';
import { registerPageToolsBridge } from '@/entrypoints/shared/page-tools-bridge-registration';
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
import { mcpOAuthOptions } from '@/entrypoints/shared/mcp-oauth-browser';
import { mcpOAuthTransport } from '@/lib/mcp/mcp-oauth-transport';

export default defineBackground(() => {
  // Registered first and synchronously, so the shortcut wakes a stopped worker (Firefox opens its sidebar itself).
  if (import.meta.env.BROWSER !== 'firefox') openPanelOnCommand();
  openPanelOnNotificationClick();
  void registerPageToolsBridge();
  Object.assign(globalThis, { splitbrainShownNotifications: shownNotifications });
  const newId = () => crypto.randomUUID();
  const targetsPorts = new Set<BrowserRuntime.Port>();
  const { handlers, stage, jobHost, values, attachPanel, stopFromPage } = composeRuntime({
    ...openEventStores(),
    storage: extensionKeyValueStore,
    // No sign-in window from the worker: a server whose grant is gone says to sign in from Settings.
    mcpTransport: mcpOAuthTransport(mcpOAuthOptions(false)),
    writeStorage: (items) => browser.storage.local.set(items),
    fetchBuiltInCatalog: fetchBuiltInTargetCatalog,
    extensionUrl,
    openStageTab,
    stageTabIsOpen,
    openJobHost,
    jobHostExists,
    pagePlatform: browserPagePlatform,
    notificationsPermitted,
    showNotification,
    onTargetState: (targetId, state) => {
      const message: TargetsPortMessage = { type: 'target/state', targetId, state };
      for (const port of targetsPorts) port.postMessage(message);
    },
    now: () => Date.now(),
    newId,
    randomHex,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    setTimer: (run, delayMs) => void setTimeout(run, delayMs),
  });
  // The last values must not wait for a timer that a stopping worker would never run.
  browser.runtime.onSuspend.addListener(() => void values.flush());

  browser.runtime.onMessage.addListener((message: unknown, sender: BrowserRuntime.MessageSender) => {
    if (isOwnExtensionPage(sender)) return answerRuntimeRequest(handlers, message);
    // The page agent's badge, in a tab: it can only ask to stop the turns acting in that tab.
    if (sender.id === browser.runtime.id && sender.tab?.id !== undefined) return stopFromPage(sender.tab.id, message);
    return undefined;
  });

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
      attachPanel(link);
    }
  });
});
