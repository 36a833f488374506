import { useEffect, useRef } from 'react';
import type { SessionRecord } from '@/lib/runtime/event-store';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { Composer } from './composer';
import { TurnView } from './turn-view';

export interface ChatPanelProps {
  state: ClientState;
  endpoint: EndpointSettings | undefined;
  running: boolean;
  sessions: SessionRecord[];
  error: string | undefined;
  onSend(text: string): void;
  onRetry(turnId: string): void;
  onStop(): void;
  onNewChat(): void;
  onSelectSession(sessionId: string): void;
  onOpenOptions(): void;
}

export function ChatPanel(props: ChatPanelProps) {
  const { state, endpoint, running, sessions } = props;
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [state]);
  const lastTurn = state.turnOrder.length ? state.turns[state.turnOrder[state.turnOrder.length - 1]] : undefined;
  return (
    <div className="chat-panel">
      <header className="panel-header">
        <select aria-label="Sessions" value={state.sessionId} onChange={(event) => props.onSelectSession(event.target.value)}>
          {!sessions.some((session) => session.sessionId === state.sessionId) && <option value={state.sessionId}>{state.title}</option>}
          {sessions.map((session) => (
            <option key={session.sessionId} value={session.sessionId}>
              {session.title}
            </option>
          ))}
        </select>
        <button type="button" onClick={props.onNewChat}>
          New chat
        </button>
      </header>
      {endpoint?.scripted && (
        <div className="scripted-banner" role="note">
          Scripted demo: replies come from a local scripted model, not a real one. Configure an endpoint in Settings.
        </div>
      )}
      {!endpoint && (
        <div className="onboarding">
          <p>No model endpoint is configured yet.</p>
          <button type="button" onClick={props.onOpenOptions}>
            Open settings
          </button>
        </div>
      )}
      <div className="message-list" ref={listRef} aria-live="polite">
        {state.turnOrder.length === 0 && endpoint && <p className="empty">Ask the model to open a target and change it, e.g. “make the particles faster and show their vectors”.</p>}
        {state.turnOrder.map((turnId) => (
          <TurnView key={turnId} state={state} turn={state.turns[turnId]} canRetry={!running && turnId === lastTurn?.turnId} onRetry={props.onRetry} />
        ))}
        {state.notifications.map((notice) => (
          <div key={notice.notificationId} className={`notice notice-${notice.level}`} role="status">
            {notice.message}
          </div>
        ))}
      </div>
      {props.error && (
        <div className="message error-message" role="alert">
          {props.error}
        </div>
      )}
      <div className="status-line" role="status" aria-live="polite">
        {running || lastTurn?.status === 'running' ? 'Generating…' : ''}
      </div>
      <Composer running={running} disabled={!endpoint} onSend={props.onSend} onStop={props.onStop} />
      <footer className="panel-footer">
        <span>{endpoint ? `${endpoint.label} · ${endpoint.model}` : 'No endpoint'}</span>
        <button type="button" className="link-button" onClick={props.onOpenOptions}>
          Settings
        </button>
      </footer>
    </div>
  );
}
