import { useCallback, useEffect, useRef, useState } from 'react';
import browser from 'webextension-polyfill';
import { ChatPanel } from '@/components/chat-panel';
import type { SessionRecord } from '@/lib/runtime/event-store';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import { initialClientState, type ClientState } from '@/lib/state/client-state';
import { SessionSync } from '@/lib/state/session-sync';
import { loadEndpoint, onEndpointChange } from '../shared/endpoint-storage';
import { callRuntime, openEventsConnection, readEvents, type EventsConnection } from '../shared/runtime-client';
import { startTurn, type TurnHandle } from './turn-runner';

const LAST_SESSION_KEY = 'lastSessionId';
const scheduler = { requestFrame: (callback: () => void) => requestAnimationFrame(callback), setTimer: (callback: () => void, delay: number) => void setTimeout(callback, delay) };

export function SidePanelApp() {
  const [sessionId, setSessionId] = useState<string>();
  const [state, setState] = useState<ClientState>();
  const [endpoint, setEndpoint] = useState<EndpointSettings>();
  const [sessions, setSessions] = useState<SessionRecord[]>([]);
  const [error, setError] = useState<string>();
  const [turn, setTurn] = useState<TurnHandle>();
  const syncRef = useRef<SessionSync>(undefined);
  const connectionRef = useRef<EventsConnection>(undefined);

  const refreshSessions = useCallback(() => {
    callRuntime<{ sessions: SessionRecord[] }>({ type: 'sessions/list' }).then((result) => setSessions(result.sessions), (reason: unknown) => setError(String(reason)));
  }, []);

  useEffect(() => {
    void loadEndpoint().then(setEndpoint);
    const stopWatching = onEndpointChange(setEndpoint);
    void browser.storage.local.get(LAST_SESSION_KEY).then((stored) => {
      const last = stored[LAST_SESSION_KEY];
      setSessionId(typeof last === 'string' ? last : crypto.randomUUID());
    });
    refreshSessions();
    const connection = openEventsConnection(
      (message) => syncRef.current?.receive(message),
      () => syncRef.current?.connect(),
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
    const sync = new SessionSync(sessionId, { subscribe: (id, generation) => connection.subscribe(id, generation), readTail: readEvents }, setState, scheduler);
    syncRef.current = sync;
    sync.connect();
  }, [sessionId]);

  const send = (text: string, retryOf?: string) => {
    if (!endpoint || !state || turn) return;
    setError(undefined);
    const handle = startTurn(endpoint, state, text, connectionRef.current!, retryOf);
    setTurn(handle);
    handle.done
      .catch((reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)))
      .finally(() => {
        setTurn(undefined);
        refreshSessions();
      });
  };

  if (!state) return <div className="chat-panel">Loading…</div>;
  return (
    <ChatPanel
      state={state}
      endpoint={endpoint}
      running={turn !== undefined}
      sessions={sessions}
      error={error}
      onSend={(text) => send(text)}
      onRetry={(turnId) => state.turns[turnId] && send(state.turns[turnId].userText, turnId)}
      onStop={() => turn?.stop()}
      onNewChat={() => !turn && setSessionId(crypto.randomUUID())}
      onSelectSession={(id) => !turn && setSessionId(id)}
      onOpenOptions={() => void browser.runtime.openOptionsPage()}
    />
  );
}
