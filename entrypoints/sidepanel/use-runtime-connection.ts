import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ConnectionWatch,
  RECONNECT_BANNER_DELAY_MS,
  RECONNECT_FAIL_AFTER_MS,
  type ConnectionStatus,
} from '@/lib/panel/connection-watch';
import { frameScheduler } from '@/lib/panel/frame-scheduler';
import { initialClientState, type ClientState } from '@/lib/state/client-state';
import { SessionSync } from '@/lib/state/session-sync';
import { stateOfSession } from '@/lib/state/state-of-session';
import { openEventsConnection, readEvents, type EventsConnection } from '../shared/call-runtime';

const PORT_LOST = 'its connection closed, and it has not answered since.';
const scheduler = frameScheduler({
  requestAnimationFrame: (callback) => void requestAnimationFrame(callback),
  setTimeout: (callback, delay) => void setTimeout(callback, delay),
});

type TurnCancelListener = (turnId: string, commandId: string) => void;

export interface RuntimeConnection {
  /** The conversation's state: its snapshot, then the tail and the live events; undefined until a session is chosen. */
  state: ClientState | undefined;
  status: ConnectionStatus;
  /** What failed, once the runtime has not answered for too long. */
  failure: string | undefined;
  /** The events port, for the turn this panel drives. */
  port(): EventsConnection | undefined;
  /** A fresh port and a fresh subscription. */
  retry(): void;
  loadOlder(limit: number): void;
  /** Every turn of the conversation, for a model request that needs the whole history. */
  loadAll(): Promise<ClientState>;
  /** Hears a cancel that another panel (or a repeated Stop) sent for a turn; returns the way to stop listening. */
  onTurnCancel(listener: TurnCancelListener): () => void;
}

/** The panel's link to the runtime: the events port, the session's subscription (snapshot + tail) and its health. */
export function useRuntimeConnection(sessionId: string | undefined): RuntimeConnection {
  const [syncedState, setState] = useState<ClientState>();
  const [health, setHealth] = useState<{ status: ConnectionStatus; failure?: string }>({ status: 'connected' });
  const syncRef = useRef<SessionSync>(undefined);
  const portRef = useRef<EventsConnection>(undefined);
  const reopenRef = useRef<() => void>(undefined);
  const cancelListeners = useRef(new Set<TurnCancelListener>());
  const [watch] = useState(
    () =>
      new ConnectionWatch({
        bannerDelayMs: RECONNECT_BANNER_DELAY_MS,
        failAfterMs: RECONNECT_FAIL_AFTER_MS,
        setTimeout: (callback, delay) => setTimeout(callback, delay),
        clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
        onChange: (status, failure) => setHealth({ status, failure }),
      }),
  );

  useEffect(() => {
    const open = () =>
      openEventsConnection(
        (message) => {
          watch.heard();
          if (message.type === 'turn/cancel') {
            for (const listener of cancelListeners.current) listener(message.turnId, message.commandId);
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
    portRef.current = open();
    // Retry keeps whatever was typed: only the port and the subscription are new.
    reopenRef.current = () => {
      watch.retrying();
      portRef.current?.close();
      portRef.current = open();
      syncRef.current?.connect();
    };
    return () => {
      watch.dispose();
      portRef.current?.close();
    };
  }, [watch]);

  useEffect(() => {
    if (!sessionId || !portRef.current) return;
    setState(initialClientState(sessionId));
    const sync = new SessionSync(
      sessionId,
      {
        subscribe: (id, generation) => {
          watch.waiting();
          portRef.current?.subscribe(id, generation);
        },
        readTail: readEvents,
        requestTurns: (id, generation, before, limit) => portRef.current?.requestTurns(id, generation, before, limit),
      },
      setState,
      scheduler,
      (message) => watch.refused(message),
    );
    syncRef.current = sync;
    sync.connect();
    const reportVisibility = () => portRef.current?.reportVisibility(sessionId, document.visibilityState === 'visible');
    reportVisibility();
    document.addEventListener('visibilitychange', reportVisibility);
    return () => {
      sync.close();
      document.removeEventListener('visibilitychange', reportVisibility);
    };
  }, [sessionId, watch]);

  const state = useMemo(() => stateOfSession(sessionId, syncedState), [sessionId, syncedState]);
  const onTurnCancel = useCallback((listener: TurnCancelListener) => {
    cancelListeners.current.add(listener);
    return () => void cancelListeners.current.delete(listener);
  }, []);
  const links = useMemo(
    () => ({
      port: () => portRef.current,
      retry: () => reopenRef.current?.(),
      loadOlder: (limit: number) => syncRef.current?.loadOlder(limit),
      loadAll: () => syncRef.current?.loadAll() ?? Promise.reject(new Error('The conversation is not open.')),
    }),
    [],
  );
  return { state, status: health.status, failure: health.failure, ...links, onTurnCancel };
}
