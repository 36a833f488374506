import { storeBytes } from '../files/store-bytes';
import { TargetRegistry } from '../manifest/target-registry';
import { PanelVisibility } from '../notify/panel-visibility';
import { WaitingNotifier } from '../notify/waiting-notifier';
import type { RuntimeHandlers } from '../protocol/runtime-result-schemas';
import type { SessionRecord } from '../protocol/session-record';
import { ApprovalPolicyStore } from '../settings/approval-policy-store';
import { SiteModesStore } from '../settings/site-modes-store';
import { UsageSettingsStore } from '../usage/usage-settings-store';
import { BudgetGuard } from '../usage/budget-guard';
import { JobHostLink } from '../jobs/job-host-link';
import { PageLink } from '../page-tools/page-link';
import { attachedFile } from './attached-file';
import { pageStopRequestSchema } from '../protocol/page-wire';
import type { AgentEvent, AgentEventType } from '../protocol/agent-event';
import type { BlobRef } from '../protocol/blob-ref';

/** After these the agent no longer acts for the session: its badge goes from the pages. */
const ENDS_ACTING = new Set<AgentEventType>(['turn/completed', 'turn/aborted', 'turn/interrupted', 'turn/paused']);
import { Runtime } from './runtime';
import { runtimeHandlers } from './runtime-handlers';
import type { RuntimePlatform } from './runtime-platform';
import { stageActions } from '../targets/stage-actions';
import { StageLink } from '../targets/stage-link';
import { stageTargetHooks } from '../targets/stage-target-hooks';
import { attachSubscriber, type SubscriberPort } from './subscriber-session';
import { targetTools } from '../targets/target-tools';
import { TargetValues } from '../targets/target-values';
import { ToolbarEdits } from '../targets/toolbar-edits';
import { toolRoutes } from './tool-routes';
import { createMcpToolFamily } from '../mcp/mcp-tool-family';
import { McpServerStore } from '../mcp/mcp-server-store';
import { McpAppCalls } from './mcp-app-calls';
import { mcpAppOpeningCall, mcpAppOpeningTool } from './mcp-app-recovery';
import { AppMessageDrafts } from '../mcp/mcp-app-request-tools';
import { activeEndpointImageRefusal } from './active-endpoint-image-refusal';
import { McpAppGrants } from '../mcp/mcp-app-grants';
import { McpAppGrantStore } from '../mcp/mcp-app-grant-store';
import { errorText } from '../protocol/error-text';
import { ConversationSearch } from '../search/conversation-search';
import { indexedEventStore } from './indexed-event-store';
import { MemorySearchShardStore } from '../search/memory-search-shard-store';

/** A session's snapshot is written again once this many durable events follow it, a while after the last. */
const SNAPSHOT_EVERY_EVENTS = 500;
const SNAPSHOT_DELAY_MS = 2_000;
/** How long a link an MCP App opened (with the user's approval) may take to load before the app is answered. */
const LINK_LOAD_TIMEOUT_MS = 10_000;

export interface ComposedRuntime {
  runtime: Runtime;
  /** The answer to every runtime request (`runtime.sendMessage` and the `calls` port). */
  handlers: RuntimeHandlers;
  /** The runtime's end of the `stage` port. */
  stage: StageLink;
  /** The runtime's end of the `jobs` port. */
  jobHost: JobHostLink;
  /** The targets' saved values; `flush` writes what waits for its timer. */
  values: TargetValues;
  /** Serves one side panel's `events` port. */
  attachPanel(port: SubscriberPort): void;
  /** A `page/stop` from the page agent's badge in a tab (anything else is ignored). */
  stopFromPage(tabId: number, message: unknown): Promise<void>;
}

/** The runtime and every link around it, built on the platform it is given. */
export function composeRuntime(platform: RuntimePlatform): ComposedRuntime {
  const { blobStore, storage, now, newId } = platform;
  const search = new ConversationSearch({
    log: platform.store,
    shards: platform.searchShards ?? new MemorySearchShardStore(),
    now,
    setTimer: platform.setTimer,
  });
  const store = indexedEventStore(platform.store, search);
  const registry = new TargetRegistry({ fetchBuiltIn: platform.fetchBuiltInCatalog, storage });
  const policies = new ApprovalPolicyStore(storage);
  const usageSettings = new UsageSettingsStore(storage);
  const values = new TargetValues({
    read: (key) => storage.get(key),
    write: platform.writeStorage,
    delayMs: 200,
    onError: (error) => console.warn('Could not save the target values:', error),
  });
  const appMessages = new AppMessageDrafts(newId);
  const appCalls = new McpAppCalls({
    messages: appMessages,
    blobStore,
    imageRefusal: () => activeEndpointImageRefusal(storage),
    appToolName: (serverId, toolName) => mcp?.appToolName(serverId, toolName) ?? Promise.resolve(undefined),
    runAppToolCall: (call) => runtime.runAppToolCall(call),
    answer: (targetId, requestId, answer) => stage.answerAppToolCall(targetId, requestId, answer),
    readResource: (serverId, uri) =>
      mcp ? mcp.readAppResource(serverId, uri) : Promise.resolve({ error: 'MCP is not available here.' }),
    listResources: (serverId, cursor) =>
      mcp ? mcp.listAppResources(serverId, cursor) : Promise.resolve({ error: 'MCP is not available here.' }),
    openLink: async (url) => {
      await platform.pagePlatform.openTab(url, undefined, LINK_LOAD_TIMEOUT_MS).catch(() => undefined);
    },
    recoverApp: async (targetId) => {
      const call = mcpAppOpeningCall((await stage.record()).recent, targetId);
      if (!call || !mcp) return undefined;
      const toolName = mcpAppOpeningTool(await runtime.read(call.sessionId, -1), call.toolCallId, targetId);
      const tool = toolName ? await mcp.toolOf(toolName) : undefined;
      return tool
        ? { sessionId: call.sessionId, serverId: tool.serverId, serverName: tool.serverName, title: tool.toolName }
        : undefined;
    },
    recordContext: (app, targetId, context) =>
      runtime.recordAppContext(app.sessionId, {
        type: 'mcp-app/context',
        sessionId: app.sessionId,
        contextId: newId(),
        time: now(),
        data: {
          targetId,
          app: app.title,
          serverName: app.serverName,
          text: context.text,
          ...(context.structuredContent ? { structuredContent: context.structuredContent } : {}),
          ...(context.images ? { images: context.images } : {}),
          marker: platform.randomHex(),
        },
      }),
  });
  const stage = new StageLink({
    openStageTab: platform.openStageTab,
    stageIsOpen: platform.stageTabIsOpen,
    ...stageTargetHooks({ extensionUrl: platform.extensionUrl, runtime: (): Runtime => runtime, newId, now }),
    onState: (targetId, state) => {
      values.remember(targetId, state);
      platform.onTargetState(targetId, state);
    },
    onAppToolCall: (targetId, requestId, call) => void appCalls.call(targetId, requestId, call),
    onAppRequest: (targetId, requestId, request) => void appCalls.request(targetId, requestId, request),
    newId,
    connectTimeoutMs: 15_000,
    jobTimeoutMs: 20_000,
    reconnectGraceMs: 5_000,
    stageGoneAfterMs: 1_500,
  });
  const targets = targetTools({ registry, values, authoredTargets: () => runtime.targetArtifacts });
  const jobHost = new JobHostLink({
    openHost: platform.openJobHost,
    hostExists: platform.jobHostExists,
    connectTimeoutMs: 10_000,
    hostGoneAfterMs: 1_500,
  });
  const panels = new PanelVisibility();
  const notifier = new WaitingNotifier({
    visibility: panels,
    switchedOn: async () => (await usageSettings.load()).browserNotifications,
    permitted: platform.notificationsPermitted,
    conversationTitle: async (sessionId) =>
      (await runtime.listSessions()).find((session) => session.sessionId === sessionId)?.title ?? '',
    show: platform.showNotification,
  });
  const siteModes = new SiteModesStore(storage);
  const pages = new PageLink({
    platform: platform.pagePlatform,
    siteMode: (origin) => siteModes.mode(origin),
    storeScreenshot: async (bytes, sessionId, ownerId) => {
      const stored = await storeBytes(blobStore, { bytes, name: 'screenshot.png', sessionId, ownerId });
      return stored.ok ? stored.ref : undefined;
    },
    now,
    newId,
    randomHex: platform.randomHex,
    sleep: platform.sleep,
    sessionTitle: async (sessionId: string): Promise<string> => {
      const sessions: SessionRecord[] = await runtime.listSessions();
      return sessions.find((session) => session.sessionId === sessionId)?.title ?? '';
    },
    attachedFile: async (sessionId: string, file: string): Promise<BlobRef | undefined> => {
      const events: AgentEvent[] = await runtime.read(sessionId, -1);
      return attachedFile(events, file);
    },
    readBlob: (blobId) => blobStore.read(blobId),
  });
  // MCP glue: the user's MCP servers as one tool family, when the platform can reach them.
  const mcpServers = new McpServerStore(storage);
  const appGrants = new McpAppGrants(new McpAppGrantStore(storage), stage);
  const mcp = platform.mcpTransport
    ? createMcpToolFamily({
        servers: () => mcpServers.load(),
        makeTransport: platform.mcpTransport,
        storeImage: (call) => (bytes, name) => storeBytes(blobStore, { bytes, name, ...call }),
        appMessages,
        appGrants: (serverId, resourceUri) => appGrants.granted(serverId, resourceUri),
        openApp: async (opening) => {
          const targetId = `mcp-app-${newId()}`;
          const showing = {
            targetId,
            title: opening.title,
            url: platform.extensionUrl('mcp-app-host.html'),
            app: opening.app,
            callKey: opening.callKey,
          };
          try {
            await stage.openMcpApp(showing);
          } catch (error) {
            return { ok: false, error: errorText(error) };
          }
          appGrants.shownApp(opening.serverId, showing);
          appCalls.opened(targetId, {
            sessionId: opening.sessionId,
            serverId: opening.serverId,
            serverName: opening.app.serverName,
            title: opening.title,
          });
          return { ok: true, targetId };
        },
      })
    : undefined;
  const toolbarEdits = new ToolbarEdits({ storage, now });
  const { rewindStage, ...stageRequests } = stageActions({
    stage,
    targets,
    values,
    toolbarEdits,
    authoredTargets: () => runtime.targetArtifacts,
  });
  const runtime = new Runtime({
    store,
    blobStore,
    rewindStage,
    toolbarEdits: () => toolbarEdits.load(),
    ...toolRoutes({ pages, stage, targets, policy: () => policies.load(), ...(mcp ? { mcp } : {}) }),
    now,
    newId,
    askExpiresAfterMs: async () => (await policies.load()).questionExpiresAfterSeconds * 1000,
    snapshots: { every: SNAPSHOT_EVERY_EVENTS, delayMs: SNAPSHOT_DELAY_MS, setTimer: platform.setTimer },
    jobHost,
    freshObservation: (sessionId, callId) => pages.observeAfterPause(sessionId, callId),
    onRecorded: (event) => {
      if (ENDS_ACTING.has(event.type)) pages.actingEnded(event.sessionId);
      void notifier.recorded(event).catch(() => undefined);
    },
  });
  const handlers = runtimeHandlers({
    runtime,
    targets: {
      catalog: () => targets.catalog(),
      register: registry.register.bind(registry),
      unregister: registry.unregister.bind(registry),
    },
    ...stageRequests,
    activeTargetId: () => stage.activeTargetId(),
    savedValues: (targetId) => values.saved(targetId),
    pages,
    search,
    ...(mcp ? { mcpTools: () => mcp.definitions(), mcpPrompts: mcp, mcpResources: mcp, mcpAppGrants: appGrants } : {}),
    budgets: new BudgetGuard({
      store,
      settings: () => usageSettings.load(),
      now,
      newId,
      recordNotifications: (sessionId, drafts) => runtime.recordNotifications(sessionId, drafts),
    }),
  });
  const attachPanel = (port: SubscriberPort) =>
    attachSubscriber(port, { runtime, newId, setTimer: platform.setTimer, orphanGraceMs: 10_000, visibility: panels });
  /** Stop on the acting badge of a tab: the turns acting there stop as with the panel's Stop. */
  const stopFromPage = async (tabId: number, message: unknown): Promise<void> => {
    if (!pageStopRequestSchema.safeParse(message).success) return;
    await Promise.all(pages.sessionsActingIn(tabId).map((sessionId) => runtime.stopRunningTurns(sessionId)));
  };
  return { runtime, handlers, stage, jobHost, values, attachPanel, stopFromPage };
}
