import browser from 'webextension-polyfill';
import type { PanelActions } from '@/components/shared/panel-actions';
import { mcpResourceFile } from '@/lib/panel/mcp-resource-file';
import { resolvePromptCommand } from '@/lib/panel/prompt-command';
import { branchSwitchEvent } from '@/lib/panel/branch-switch';
import { runTimeline } from '@/lib/panel/run-timeline';
import {
  composedRequest,
  regenerateRequest,
  resendRequest,
  retryRequest,
  stepRetryRequest,
  toolRetryRequest,
} from '@/lib/panel/turn-request';
import { errorText } from '@/lib/protocol/error-text';
import { isLoopbackUrl } from '@/lib/providers/loopback-url';
import { isRemoteEndpoint, type EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { runtimeActions } from './runtime-actions';
import type { useAttachments } from './use-attachments';
import { requestSiteAccess, type useCurrentPage } from './use-current-page';
import type { RuntimeConnection } from './use-runtime-connection';
import type { PanelSessions } from './use-sessions';
import { useStableActions } from './use-stable-actions';
import { callRuntime, readEvents } from '../shared/call-runtime';
import { removeDownload, requestDownloadsPermission } from '../shared/browser-downloads';
import type { TurnJump } from '@/lib/panel/turn-jump';
import type { PanelTurn } from './use-turn';
import { loadTurnEngine } from '@/lib/agent/turn-engine';

export interface SidePanelParts {
  state: ClientState | undefined;
  endpoint: EndpointSettings | undefined;
  connection: RuntimeConnection;
  sessions: PanelSessions;
  turn: PanelTurn;
  files: ReturnType<typeof useAttachments>;
  currentPage: ReturnType<typeof useCurrentPage>;
  report(message: string | undefined): void;
  /** Shows a turn of a conversation once it is open (a search result). */
  jump(target: TurnJump): void;
}

const promptRuntime = {
  prompts: () => callRuntime({ type: 'mcp/prompts' }),
  prompt: (serverId: string, name: string, args: Record<string, string>) =>
    callRuntime({ type: 'mcp/prompt', serverId, name, arguments: args }),
};

/** Every action of the panel's components, wired once to the hooks that carry them out. */
const nothingWrong = () => undefined;

export function useSidePanelActions(parts: SidePanelParts): PanelActions {
  const { state, endpoint, connection, sessions, turn, files, currentPage, report, jump } = parts;
  const whenIdle = (action: () => void) => () => void (!turn.running && action());
  return useStableActions<PanelActions>({
    send: (text) => {
      const ready = files.ready;
      if (!ready) return;
      if (!text.startsWith('/')) return turn.send(composedRequest(text, ready));
      const failed = (message: string) => {
        report(message);
        turn.giveBack(text);
      };
      void resolvePromptCommand(text, promptRuntime).then(
        (composed) => (composed.ok ? turn.send(composedRequest(composed.text, ready)) : failed(composed.error)),
        (reason: unknown) => failed(`The prompt could not be filled in: ${errorText(reason)}`),
      );
    },
    listPrompts: promptRuntime.prompts,
    steer: turn.steer,
    stop: turn.stop,
    pause: turn.pause,
    resume: turn.resume,
    compact: turn.compact,
    retry: (turnId) => {
      const request = state && retryRequest(state, turnId);
      if (request) turn.send(request);
    },
    retryStep: (turnId) => {
      const request = state && stepRetryRequest(state, turnId);
      if (request) turn.send(request);
    },
    retryToolCall: (toolCallId) => {
      const request = state && toolRetryRequest(state, toolCallId, crypto.randomUUID());
      if (request) turn.send(request);
    },
    resend: (text, turnId) => void (state && turn.send(resendRequest(state, text, turnId))),
    regenerate: (turnId) => {
      const request = state && regenerateRequest(state, turnId);
      if (request) turn.send(request);
    },
    showBranch: (turnId, place) => {
      const switched = state && !turn.running && branchSwitchEvent(state, turnId, place, Date.now());
      if (!switched) return;
      const events = [switched];
      callRuntime({ type: 'events/append', sessionId: switched.sessionId, batchId: crypto.randomUUID(), events }).catch(
        (reason: unknown) => report(`Could not switch the branch: ${errorText(reason)}`),
      );
    },
    fork: (turnId) => {
      if (!state || turn.running) return;
      callRuntime({ type: 'session/fork', sessionId: state.sessionId, turnId }).then(
        (forked) => {
          sessions.refresh();
          sessions.open(forked.sessionId);
        },
        (reason: unknown) => report(`Could not fork the conversation: ${errorText(reason)}`),
      );
    },
    previewRewind: async (turnId) => {
      if (!state) throw new Error('The panel is not connected.');
      return (await callRuntime({ type: 'session/rewind-preview', sessionId: state.sessionId, turnId })).preview;
    },
    rewind: async (turnId, mode) => {
      if (!state || turn.running) return 'A reply is running: stop it before rewinding.';
      try {
        // One id per Rewind pressed: callRuntime sends it again when the worker stops under it, and it is one rewind.
        const rewindId = crypto.randomUUID();
        const result = await callRuntime({
          type: 'session/rewind',
          sessionId: state.sessionId,
          turnId,
          mode,
          rewindId,
        });
        // Said in the panel, not the dialog: the rewound message, and the dialog under it, left the view already.
        if (result.unfinished)
          report(
            `Rewound, but the targets were not restored yet: ${result.unfinished} They are restored when this conversation is opened again.`,
          );
        return undefined;
      } catch (reason) {
        return `Could not rewind: ${errorText(reason)}`;
      }
    },
    loadOlder: connection.loadOlder,
    sendOverBudget: turn.sendOverBudget,
    dismissBudgetRefusal: turn.dismissBudgetRefusal,
    dismissError: () => report(undefined),
    retryConnection: () => {
      connection.retry();
      sessions.refresh();
    },
    openOptions: () => void browser.runtime.openOptionsPage(),
    newChat: whenIdle(sessions.startNew),
    selectSession: (sessionId) => whenIdle(() => sessions.open(sessionId))(),
    deleteSession: sessions.remove,
    exportSession: (sessionId) => {
      const secrets = endpoint && isRemoteEndpoint(endpoint) && endpoint.apiKey ? [endpoint.apiKey] : [];
      sessions.download(sessionId, state?.title, secrets);
    },
    importSession: (file) => whenIdle(() => sessions.importFile(file))(),
    dismissNotice: sessions.dismissNotice,
    // The panel component shows the timeline; what it reads is the log, projected in lib/.
    openTimeline: () => undefined,
    loadTimeline: async (turnId) =>
      state ? runTimeline(await readEvents(state.sessionId, 0), turnId) : { turns: [], entries: [] },
    searchConversations: (query) => callRuntime({ type: 'search/query', query }),
    openSearchHit: (hit) => {
      if (hit.sessionId !== state?.sessionId && turn.running) return;
      const { sessionId, turnId } = hit;
      jump({ sessionId, turnPosition: hit.turnPosition ?? 0, ...(turnId ? { turnId } : {}), nonce: performance.now() });
      if (hit.sessionId !== state?.sessionId) sessions.open(hit.sessionId);
    },
    refreshSessions: sessions.refresh,
    attachFiles: files.composer.onAttachFiles,
    composing: () => void loadTurnEngine(),
    listResources: () => callRuntime({ type: 'mcp/resources' }),
    attachResource: (resource) =>
      void callRuntime({
        type: 'mcp/resource',
        serverId: resource.serverId,
        uri: resource.uri,
        listed: { name: resource.name, ...(resource.mimeType ? { mimeType: resource.mimeType } : {}) },
      }).then(
        (read) =>
          read.ok
            ? files.composer.onAttachFiles(read.parts.map((part) => mcpResourceFile(part, Date.now())))
            : report(`Could not attach ${resource.name}: ${read.error}`),
        (reason: unknown) => report(`Could not attach ${resource.name}: ${errorText(reason)}`),
      ),
    removeAttachment: files.composer.onRemoveAttachment,
    setPageMode: currentPage.setMode,
    removeDownload: (downloadId) => removeDownload(downloadId).then(nothingWrong, errorText),
    allowDownloads: () =>
      requestDownloadsPermission().then(
        (granted) => (granted ? undefined : 'The downloads permission was not granted.'),
        errorText,
      ),
    listMcpAppGrants: async () => (await callRuntime({ type: 'mcp-app/grants' })).grants,
    setMcpAppGrant: async (grant, granted) => {
      // Asked before anything is awaited (the click is the gesture the browser requires); as for endpoints and MCP
      // servers, this machine's origins need none.
      const asked = granted && !isLoopbackUrl(grant.origin) ? requestSiteAccess(grant.origin) : Promise.resolve(true);
      if (!(await asked)) return `The browser's access to ${grant.origin} was not granted, so the app cannot reach it.`;
      return callRuntime({ type: 'mcp-app/grant', grant, granted }).then(nothingWrong, errorText);
    },
    ...runtimeActions({
      sessionId: () => state?.sessionId ?? '',
      toolNameOf: (toolCallId) => state?.toolCalls[toolCallId]?.toolName,
      giveBack: turn.giveBack,
      report,
    }),
  });
}
