import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import browser from 'webextension-polyfill';
import { ChatPanel, type ConnectionStatus } from '@/components/chat-panel';
import { HumanLoopContext, type HumanLoopActions } from '@/components/human-loop-actions';
import { JobActionsContext, type JobActions } from '@/components/job-actions';
import { startTurn, type TurnHandle } from '@/lib/agent/turn-driver';
import { followTurn, steerTurn } from '@/lib/agent/turn-feedback';
import { turnReplacedByEdit } from '@/lib/agent/turn-replaced-by-edit';
import { frameScheduler } from '@/lib/panel/frame-scheduler';
import { sessionExport, sessionExportFileName } from '@/lib/panel/session-export';
import type { SessionRecord } from '@/lib/runtime/event-store';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import { initialClientState, type ClientState } from '@/lib/state/client-state';
import { SessionSync } from '@/lib/state/session-sync';
import { downloadJson } from '../shared/download-json';
import { loadEndpoint, onEndpointChange } from '../shared/endpoint-storage';
import { callRuntime, openEventsConnection, readEvents, type EventsConnection } from '../shared/runtime-client';
import { usePanelShortcut } from './panel-shortcut';
import { panelRuntimeClient } from './panel-runtime-client';

const LAST_SESSION_KEY = 'lastSessionId';
/** A reconnect shorter than this (the usual service-worker restart) is not worth a banner. */
const RECONNECT_BANNER_DELAY_MS = 800;
const scheduler = frameScheduler({
  requestAnimationFrame: (callback) => void requestAnimationFrame(callback),
  setTimeout: (callback, delay) => void setTimeout(callback, delay),
});

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}

export function SidePanelApp() {
  const [sessionId, setSessionId] = useState<string>();
  const [state, setState] = useState<ClientState>();
  const [endpoint, setEndpoint] = useState<EndpointSettings>();
  const [endpointLoaded, setEndpointLoaded] = useState(false);
  const [sessions, setSessions] = useState<SessionRecord[]>([]);
  const [error, setError] = useState<string>();
  const [turn, setTurn] = useState<TurnHandle>();
  const [connection, setConnection] = useState<ConnectionStatus>('connected');
  const [unsent, setUnsent] = useState<{ text: string; nonce: number }>();
  const syncRef = useRef<SessionSync>(undefined);
  const turnRef = useRef<TurnHandle>(undefined);
  useLayoutEffect(() => {
    turnRef.current = turn;
  });
  const connectionRef = useRef<EventsConnection>(undefined);
  const reconnectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const shortcut = usePanelShortcut();

  const refreshSessions = useCallback(() => {
    callRuntime({ type: 'sessions/list' }).then(
      (result) => setSessions(result.sessions),
      (reason: unknown) => setError(messageOf(reason)),
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
    const connection = openEventsConnection(
      (message) => {
        clearTimeout(reconnectTimer.current);
        setConnection('connected');
        if (message.type === 'turn/cancel') {
          // Another panel (or a repeated Stop) cancelled a turn this panel drives.
          if (turnRef.current?.turnId === message.turnId) turnRef.current.stop(message.commandId);
          return;
        }
        syncRef.current?.receive(message);
      },
      () => syncRef.current?.connect(),
      () => {
        clearTimeout(reconnectTimer.current);
        reconnectTimer.current = setTimeout(() => setConnection('reconnecting'), RECONNECT_BANNER_DELAY_MS);
      },
    );
    connectionRef.current = connection;
    return () => {
      stopWatching();
      connection.close();
    };
  }, [refreshSessions]);

  useEffect(() => {
    if (!sessionId || !connectionRef.current) return;
    const connection = connectionRef.current;
    void browser.storage.local.set({ [LAST_SESSION_KEY]: sessionId });
    setState(initialClientState(sessionId));
    const sync = new SessionSync(
      sessionId,
      { subscribe: (id, generation) => connection.subscribe(id, generation), readTail: readEvents },
      setState,
      scheduler,
    );
    syncRef.current = sync;
    sync.connect();
  }, [sessionId]);

  const feedback = useMemo(
    () => ({ unsent: (text: string) => setUnsent({ text, nonce: Date.now() }), failed: setError }),
    [],
  );
  const send = (text: string, retryOf?: string) => {
    if (!endpoint || !state || turn) return;
    setError(undefined);
    const client = panelRuntimeClient(connectionRef.current!);
    const handle = startTurn({ client, settings: endpoint, state, text, retryOf });
    setTurn(handle);
    followTurn(handle, text, {
      ...feedback,
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
    if (retried) sendRef.current(retried.userText, turnId);
  }, []);

  const onResend = useCallback((text: string, turnId: string) => {
    const current = stateRef.current;
    sendRef.current(text, current && turnReplacedByEdit(current, turnId));
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
        callRuntime({
          type: 'approval/decide',
          sessionId: stateRef.current?.sessionId ?? '',
          turnId: request.turnId,
          toolCallId: request.toolCallId ?? '',
          requestId: request.requestId,
          decision,
          scope,
        }).then(
          (result) => (result.accepted ? undefined : `Not recorded: this request is already ${result.status}.`),
          (reason: unknown) => messageOf(reason),
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
          (reason: unknown) => messageOf(reason),
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
          (reason: unknown) => messageOf(reason),
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
          (reason: unknown) => messageOf(reason),
        ),
    }),
    [],
  );
  const onOpenOptions = useCallback(() => void browser.runtime.openOptionsPage(), []);

  const deleteSession = (id: string) => {
    callRuntime({ type: 'session/delete', sessionId: id }).then(
      () => {
        if (id === sessionId) setSessionId(crypto.randomUUID());
        refreshSessions();
      },
      (reason: unknown) => setError(`Could not delete the conversation: ${messageOf(reason)}`),
    );
  };

  const exportSession = (id: string) => {
    const record = sessions.find((session) => session.sessionId === id);
    const title = record?.title ?? (id === state?.sessionId ? state.title : 'Conversation');
    readEvents(id, 0).then(
      (events) => {
        const now = new Date();
        const secrets = endpoint?.apiKey ? [endpoint.apiKey] : [];
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
      (reason: unknown) => setError(`Could not export the conversation: ${messageOf(reason)}`),
    );
  };

  if (!state) return <div className="chat-panel" aria-busy="true" />;
  return (
    <HumanLoopContext.Provider value={humanLoop}>
      <JobActionsContext.Provider value={jobActions}>
        <ChatPanel
          state={state}
          endpoint={endpoint}
          endpointLoaded={endpointLoaded}
          running={turn !== undefined}
          connection={connection}
          sessions={sessions}
          error={error}
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
          shortcut={shortcut}
        />
      </JobActionsContext.Provider>
    </HumanLoopContext.Provider>
  );
}
