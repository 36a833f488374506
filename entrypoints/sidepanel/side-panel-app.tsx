import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import browser from 'webextension-polyfill';
import { ChatPanel } from '@/components/chat-panel';
import { HumanLoopContext, type HumanLoopActions } from '@/components/human-loop-actions';
import { UsagePricesContext } from '@/components/usage-prices-context';
import { JobActionsContext, type JobActions } from '@/components/job-actions';
import { FactActionsContext, type FactActions } from '@/components/fact-actions';
import { startTurn, type TurnHandle } from '@/lib/agent/turn-driver';
import { followTurn, steerTurn } from '@/lib/agent/turn-feedback';
import { turnReplacedByEdit } from '@/lib/agent/turn-replaced-by-edit';
import {
  ConnectionWatch,
  RECONNECT_BANNER_DELAY_MS,
  RECONNECT_FAIL_AFTER_MS,
  type ConnectionStatus,
} from '@/lib/panel/connection-watch';
import { frameScheduler } from '@/lib/panel/frame-scheduler';
import { sessionExport, sessionExportFileName } from '@/lib/panel/session-export';
import type { SessionRecord } from '@/lib/protocol/session-record';
import { isRemoteEndpoint, type EndpointSettings } from '@/lib/settings/endpoint-settings';
import { initialClientState, type ClientState } from '@/lib/state/client-state';
import { stateOfSession } from '@/lib/state/state-of-session';
import { isHistoryLoaded } from '@/lib/state/history-loaded';
import { SessionSync } from '@/lib/state/session-sync';
import { isBudgetRefusal } from '@/lib/usage/budget-state';
import { downloadJson } from '../shared/download-json';
import { loadEndpoint, onEndpointChange } from '../shared/endpoint-storage';
import { callRuntime, openEventsConnection, readEvents, type EventsConnection } from '../shared/call-runtime';
import { reencodeImage } from '../shared/reencode-image';
import { BlobContext } from '@/components/blob-context';
import type { JsonValue } from '@/lib/protocol/json-value';
import { FormActionsContext, ViewArtifactsContext, type FormActions } from '@/components/view-artifacts-context';
import type { MessageAttachment } from '@/lib/protocol/upload-events';
import { panelBlobStore, readBlobForPreview } from './panel-blob-store';
import { usePanelShortcut } from './panel-shortcut';
import { useAttachments } from './use-attachments';
import { panelRuntimeClient } from './panel-runtime-client';
import { useUsageSettings } from './use-usage-settings';
import { requestSiteAccess, useCurrentPage } from './use-current-page';
import { errorText } from '@/lib/protocol/error-text';

const LAST_SESSION_KEY = 'lastSessionId';
const PORT_LOST = 'its connection closed, and it has not answered since.';
const scheduler = frameScheduler({
  requestAnimationFrame: (callback) => void requestAnimationFrame(callback),
  setTimeout: (callback, delay) => void setTimeout(callback, delay),
});

export function SidePanelApp() {
  const [sessionId, setSessionId] = useState<string>();
  const [syncedState, setState] = useState<ClientState>();
  const state = useMemo(() => stateOfSession(sessionId, syncedState), [sessionId, syncedState]);
  const [endpoint, setEndpoint] = useState<EndpointSettings>();
  const [endpointLoaded, setEndpointLoaded] = useState(false);
  const [sessions, setSessions] = useState<SessionRecord[]>([]);
  const [error, setError] = useState<string>();
  const [turn, setTurn] = useState<TurnHandle>();
  const [connection, setConnection] = useState<ConnectionStatus>('connected');
  const [connectionFailure, setConnectionFailure] = useState<string>();
  const [unsent, setUnsent] = useState<{ text: string; nonce: number }>();
  const [budgetRefusal, setBudgetRefusal] = useState<{
    message: string;
    text: string;
    retryOf?: string;
    attachments: MessageAttachment[];
  }>();
  const usageSettings = useUsageSettings();
  const currentPage = useCurrentPage(sessionId);
  const syncRef = useRef<SessionSync>(undefined);
  const turnRef = useRef<TurnHandle>(undefined);
  useLayoutEffect(() => {
    turnRef.current = turn;
  });
  const connectionRef = useRef<EventsConnection>(undefined);
  const reopenRef = useRef<() => void>(undefined);
  const [watch] = useState(
    () =>
      new ConnectionWatch({
        bannerDelayMs: RECONNECT_BANNER_DELAY_MS,
        failAfterMs: RECONNECT_FAIL_AFTER_MS,
        setTimeout: (callback, delay) => setTimeout(callback, delay),
        clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
        onChange: (status, failure) => {
          setConnection(status);
          setConnectionFailure(failure);
        },
      }),
  );
  const shortcut = usePanelShortcut();

  const refreshSessions = useCallback(() => {
    callRuntime({ type: 'sessions/list' }).then(
      (result) => setSessions(result.sessions),
      (reason: unknown) => setError(errorText(reason)),
    );
  }, []);

  useEffect(() => {
    void loadEndpoint().then((loaded) => {
      setEndpoint(loaded);
      setEndpointLoaded(true);
    });
    const stopWatching = onEndpointChange(setEndpoint);
    void browser.storage.local.get(LAST_SESSION_KEY).then((stored) => {
      const last = stored[LAST_SESSION_KEY];
      setSessionId(typeof last === 'string' ? last : crypto.randomUUID());
    });
    refreshSessions();
    const open = () =>
      openEventsConnection(
        (message) => {
          watch.heard();
          if (message.type === 'turn/cancel') {
            // Another panel (or a repeated Stop) cancelled a turn this panel drives.
            if (turnRef.current?.turnId === message.turnId) turnRef.current.stop(message.commandId);
            return;
          }
          syncRef.current?.receive(message);
        },
        () => {
          watch.waiting();
          syncRef.current?.connect();
        },
        () => watch.waiting(PORT_LOST),
      );
    connectionRef.current = open();
    // Retry: a fresh port and a fresh subscription, while the composer keeps whatever was typed.
    reopenRef.current = () => {
      watch.retrying();
      connectionRef.current?.close();
      connectionRef.current = open();
      syncRef.current?.connect();
      refreshSessions();
    };
    return () => {
      stopWatching();
      watch.dispose();
      connectionRef.current?.close();
    };
  }, [refreshSessions, watch]);

  useEffect(() => {
    if (!sessionId || !connectionRef.current) return;
    void browser.storage.local.set({ [LAST_SESSION_KEY]: sessionId });
    setState(initialClientState(sessionId));
    const sync = new SessionSync(
      sessionId,
      {
        subscribe: (id, generation) => {
          watch.waiting();
          connectionRef.current?.subscribe(id, generation);
        },
        readTail: readEvents,
        requestTurns: (id, generation, before, limit) =>
          connectionRef.current?.requestTurns(id, generation, before, limit),
      },
      setState,
      scheduler,
      (message) => watch.refused(message),
    );
    syncRef.current = sync;
    sync.connect();
    const reportVisibility = () =>
      connectionRef.current?.reportVisibility(sessionId, document.visibilityState === 'visible');
    reportVisibility();
    document.addEventListener('visibilitychange', reportVisibility);
    return () => {
      sync.close();
      document.removeEventListener('visibilitychange', reportVisibility);
    };
  }, [sessionId, watch]);

  const feedback = useMemo(
    () => ({ unsent: (text: string) => setUnsent({ text, nonce: Date.now() }), failed: setError }),
    [],
  );
  const files = useAttachments(state, endpoint);
  const loadingHistoryRef = useRef(false);
  const send = (text: string, retryOf?: string, overBudget = false, attachments = files.ready) => {
    if (!endpoint || !state || turn || !isHistoryLoaded(state) || !attachments || loadingHistoryRef.current) return;
    // The model's history is the whole conversation: turns not loaded yet (the reader never scrolled up) load first.
    if (state.olderTurns > 0 && syncRef.current) {
      loadingHistoryRef.current = true;
      void syncRef.current.loadAll().then(
        (loaded) => {
          loadingHistoryRef.current = false;
          begin(endpoint, loaded, text, retryOf, overBudget, attachments);
        },
        (reason: unknown) => {
          loadingHistoryRef.current = false;
          setError(`The earlier turns could not be loaded, so nothing was sent: ${errorText(reason)}`);
          feedback.unsent(text);
        },
      );
      return;
    }
    begin(endpoint, state, text, retryOf, overBudget, attachments);
  };
  const begin = (
    endpoint: EndpointSettings,
    state: ClientState,
    text: string,
    retryOf: string | undefined,
    overBudget: boolean,
    attachments: MessageAttachment[],
  ) => {
    setError(undefined);
    setBudgetRefusal(undefined);
    const client = panelRuntimeClient(connectionRef.current!);
    const handle = startTurn({
      client,
      settings: endpoint,
      state,
      text,
      retryOf,
      overBudget,
      attachments,
      files: { read: (blobId) => panelBlobStore.read(blobId), reencodeImage },
    });
    files.sent();
    setTurn(handle);
    // A turn the runtime refused at a budget keeps its text in the refusal notice, which can send it once over.
    handle.recorded.catch((reason: unknown) =>
      isBudgetRefusal(errorText(reason))
        ? setBudgetRefusal({ message: errorText(reason), text, attachments, ...(retryOf ? { retryOf } : {}) })
        : feedback.unsent(text),
    );
    followTurn(handle, text, {
      unsent: () => undefined,
      failed: (message) => {
        if (!isBudgetRefusal(message)) setError(message);
      },
      ended: () => {
        setTurn(undefined);
        refreshSessions();
      },
    });
  };
  // Stable identities let turns that did not change skip rendering.
  const sendRef = useRef(send);
  const stateRef = useRef(state);
  useLayoutEffect(() => {
    sendRef.current = send;
    stateRef.current = state;
  });

  const onRetry = useCallback((turnId: string) => {
    const retried = stateRef.current?.turns[turnId];
    if (retried) sendRef.current(retried.userText, turnId, false, retried.attachments ?? ([] as MessageAttachment[]));
  }, []);

  const onResend = useCallback((text: string, turnId: string) => {
    const current = stateRef.current;
    sendRef.current(
      text,
      current && turnReplacedByEdit(current, turnId),
      false,
      current?.turns[turnId]?.attachments ?? [],
    );
  }, []);

  const onStop = useCallback(() => turn?.stop(), [turn]);
  const onSteer = useCallback(
    (text: string) => {
      if (turn) steerTurn(turn, text, feedback);
    },
    [turn, feedback],
  );
  const humanLoop = useMemo<HumanLoopActions>(
    () => ({
      decide: (request, decision, scope) =>
        // The permission request comes first and synchronously: the Allow click is the gesture the browser needs.
        (request.siteOrigin && decision === 'allow' ? requestSiteAccess(request.siteOrigin) : Promise.resolve(true))
          .then(() =>
            callRuntime({
              type: 'approval/decide',
              sessionId: stateRef.current?.sessionId ?? '',
              turnId: request.turnId,
              toolCallId: request.toolCallId ?? '',
              requestId: request.requestId,
              decision,
              scope,
            }),
          )
          .then(
            (result) => (result.accepted ? undefined : `Not recorded: this request is already ${result.status}.`),
            (reason: unknown) => errorText(reason),
          ),
      answer: (request, answer) =>
        callRuntime({
          type: 'ask/answer',
          sessionId: stateRef.current?.sessionId ?? '',
          turnId: request.turnId,
          requestId: request.requestId,
          answer,
        }).then(
          (result) =>
            result.accepted ? undefined : (result.error ?? `Not recorded: this question is already ${result.status}.`),
          (reason: unknown) => errorText(reason),
        ),
      withdraw: (command) =>
        callRuntime({
          type: 'command/withdraw',
          sessionId: stateRef.current?.sessionId ?? '',
          commandId: command.commandId,
        }).then(
          (result) => {
            if (result.state !== 'cancelled')
              return result.state === 'applied'
                ? 'Too late: it was already added to the turn.'
                : `Not withdrawn: it is ${result.state}.`;
            setUnsent({ text: command.text ?? '', nonce: Date.now() });
            return undefined;
          },
          (reason: unknown) => errorText(reason),
        ),
    }),
    [],
  );
  const formActions = useMemo<FormActions>(
    () => ({
      submit: (request, submission) =>
        callRuntime({
          type: 'artifact/act',
          sessionId: stateRef.current?.sessionId ?? '',
          turnId: request.turnId,
          requestId: request.requestId,
          ...submission,
          payload: submission.payload as JsonValue,
        }).then(
          (result) =>
            result.accepted
              ? undefined
              : {
                  error: result.error ?? `Not recorded: this question is already ${result.status}.`,
                  problems: result.problems ?? [],
                },
          (reason: unknown) => ({ error: errorText(reason), problems: [] }),
        ),
    }),
    [],
  );
  const jobActions = useMemo<JobActions>(
    () => ({
      stop: (job) =>
        callRuntime({
          type: 'job/cancel',
          sessionId: stateRef.current?.sessionId ?? '',
          jobId: job.jobId,
          commandId: crypto.randomUUID(),
        }).then(
          (result) => (result.state === 'rejected' ? `Not stopped: the job is ${result.jobState}.` : undefined),
          (reason: unknown) => errorText(reason),
        ),
    }),
    [],
  );
  const factActions = useMemo<FactActions>(
    () => ({
      dismiss: (notificationId) => {
        const id = stateRef.current?.sessionId;
        if (!id) return;
        const dismissed = { type: 'notify/dismissed', sessionId: id, notificationId, time: Date.now(), data: {} };
        callRuntime({ type: 'events/append', sessionId: id, batchId: crypto.randomUUID(), events: [dismissed] }).catch(
          (reason: unknown) => setError(`Could not dismiss the notice: ${errorText(reason)}`),
        );
      },
    }),
    [],
  );
  const onOpenOptions = useCallback(() => void browser.runtime.openOptionsPage(), []);
  const onLoadOlder = useCallback((limit: number) => syncRef.current?.loadOlder(limit), []);

  const deleteSession = (id: string) => {
    callRuntime({ type: 'session/delete', sessionId: id }).then(
      () => {
        if (id === sessionId) setSessionId(crypto.randomUUID());
        refreshSessions();
      },
      (reason: unknown) => setError(`Could not delete the conversation: ${errorText(reason)}`),
    );
  };

  const exportSession = (id: string) => {
    const record = sessions.find((session) => session.sessionId === id);
    const title = record?.title ?? (id === state?.sessionId ? state.title : 'Conversation');
    readEvents(id, 0).then(
      (events) => {
        const now = new Date();
        const secrets = endpoint && isRemoteEndpoint(endpoint) && endpoint.apiKey ? [endpoint.apiKey] : [];
        downloadJson(
          sessionExport(
            { sessionId: id, title, createdAt: record?.createdAt, updatedAt: record?.updatedAt },
            events,
            secrets,
            now,
          ),
          sessionExportFileName(title, now),
        );
      },
      (reason: unknown) => setError(`Could not export the conversation: ${errorText(reason)}`),
    );
  };

  if (!state) return <div className="chat-panel" aria-busy="true" />;
  return (
    <HumanLoopContext.Provider value={humanLoop}>
      <UsagePricesContext.Provider value={usageSettings.prices}>
        <JobActionsContext.Provider value={jobActions}>
          <FactActionsContext.Provider value={factActions}>
            <BlobContext.Provider value={readBlobForPreview}>
              <FormActionsContext.Provider value={formActions}>
                <ViewArtifactsContext.Provider value={state.viewArtifacts}>
                  <ChatPanel
                    state={state}
                    endpoint={endpoint}
                    endpointLoaded={endpointLoaded}
                    running={turn !== undefined}
                    connection={connection}
                    connectionFailure={connectionFailure}
                    onRetryConnection={() => reopenRef.current?.()}
                    sessions={sessions}
                    error={error}
                    budgetRefusal={
                      budgetRefusal && {
                        message: budgetRefusal.message,
                        onSendOnce: () =>
                          send(budgetRefusal.text, budgetRefusal.retryOf, true, budgetRefusal.attachments),
                        onDismiss: () => {
                          setUnsent({ text: budgetRefusal.text, nonce: Date.now() });
                          setBudgetRefusal(undefined);
                        },
                      }
                    }
                    unsent={unsent}
                    onSend={(text) => send(text)}
                    onRetry={onRetry}
                    onResend={onResend}
                    onStop={onStop}
                    onSteer={onSteer}
                    onNewChat={() => !turn && setSessionId(crypto.randomUUID())}
                    onSelectSession={(id) => !turn && setSessionId(id)}
                    onDeleteSession={deleteSession}
                    onExportSession={exportSession}
                    onRefreshSessions={refreshSessions}
                    onDismissError={() => setError(undefined)}
                    onOpenOptions={onOpenOptions}
                    onLoadOlder={onLoadOlder}
                    shortcut={shortcut}
                    files={files.composer}
                    page={{ page: currentPage.page, onModeChange: currentPage.setMode }}
                  />
                </ViewArtifactsContext.Provider>
              </FormActionsContext.Provider>
            </BlobContext.Provider>
          </FactActionsContext.Provider>
        </JobActionsContext.Provider>
      </UsagePricesContext.Provider>
    </HumanLoopContext.Provider>
  );
}
