import { useEffect, useState } from 'react';
import type { SessionRecord } from '@/lib/protocol/session-record';
import type { ConnectionStatus } from '@/lib/panel/connection-watch';
import { turnAnnouncement } from '@/lib/panel/turn-announcement';
import { endpointAddress, endpointModelName, type EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { isHistoryLoaded } from '@/lib/state/history-loaded';
import { pageSuggestion } from '@/lib/panel/page-suggestion';
import { Composer, type ComposerProps } from './composer';
import { ConversationLoading } from './conversation-loading';
import { EmptyConversation } from './empty-conversation';
import { BrandMark, CrossIcon, HistoryIcon, PlusIcon, Spinner } from './icons';
import { MessageList } from './message-list';
import { OnboardingView } from './onboarding-view';
import { SessionDrawer } from './session-drawer';
import { BudgetRefusal } from './budget-refusal';
import { UsageLine } from './usage-line';
import { PageLine, type PageLineProps } from './page-line';
import type { PanelShortcut } from './shortcut-hint';

export type { ConnectionStatus } from '@/lib/panel/connection-watch';

export interface ChatPanelProps {
  state: ClientState;
  endpoint: EndpointSettings | undefined;
  /** False until the stored endpoint has been read, so the onboarding view does not flash. */
  endpointLoaded: boolean;
  running: boolean;
  connection: ConnectionStatus;
  /** What failed, once the runtime has not answered for too long. */
  connectionFailure?: string;
  onRetryConnection?(): void;
  sessions: SessionRecord[];
  error: string | undefined;
  /** A turn refused at a budget, with the way to send it once over. */
  budgetRefusal?: { message: string; onSendOnce(): void; onDismiss(): void };
  /** A message that could not be recorded, handed back to the composer; `nonce` changes each time. */
  unsent?: { text: string; nonce: number };
  onSend(text: string): void;
  onSteer(text: string): void;
  onRetry(turnId: string): void;
  onResend(text: string, turnId: string): void;
  onStop(): void;
  onNewChat(): void;
  onSelectSession(sessionId: string): void;
  onDeleteSession(sessionId: string): void;
  onExportSession(sessionId: string): void;
  onRefreshSessions(): void;
  onDismissError(): void;
  onOpenOptions(): void;
  /** Asks for older turns of the conversation, as the reader scrolls up to them. */
  onLoadOlder?(limit: number): void;
  /** The keyboard shortcut that opens the panel, shown in the empty and onboarding views. */
  shortcut?: PanelShortcut;
  /** The composer's files: what is attached, why it cannot be sent, how to add and remove. */
  files?: Pick<ComposerProps, 'attachments' | 'attachmentRefusal' | 'onAttachFiles' | 'onRemoveAttachment'>;
  /** The page the page tools act on, shown above the composer. */
  page?: PageLineProps;
}

function statusText(state: ClientState, running: boolean): string {
  const lastTurn = state.turns[state.turnOrder.at(-1) ?? ''];
  if (!running && lastTurn?.status !== 'running') return '';
  if (lastTurn?.retry) return 'Waiting to retry…';
  const waitingFor = Object.values(state.requests).find(
    (request) => request.turnId === lastTurn?.turnId && request.status === 'pending',
  );
  if (waitingFor) return waitingFor.kind === 'approval' ? 'Waiting for your approval…' : 'Waiting for your answer…';
  const runningTool = lastTurn?.entries
    .map((entry) => (entry.kind === 'tool' ? state.toolCalls[entry.toolCallId] : undefined))
    .find((call) => call?.status === 'running');
  return runningTool ? `Running ${runningTool.toolName}…` : 'Generating…';
}

export function ChatPanel(props: ChatPanelProps) {
  const { state, endpoint, running, sessions, onStop } = props;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [seed, setSeed] = useState<{ text: string; nonce: number }>();
  const lastTurn = state.turns[state.turnOrder.at(-1) ?? ''];
  const status = statusText(state, running);
  const loading = !isHistoryLoaded(state);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && running && !event.defaultPrevented) onStop();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [running, onStop]);

  const openDrawer = () => {
    props.onRefreshSessions();
    setDrawerOpen(true);
  };
  const closeDrawerThen = (action: () => void) => () => {
    setDrawerOpen(false);
    action();
  };

  return (
    <div className="chat-panel">
      <header className="panel-header">
        <button
          type="button"
          className="icon-button"
          aria-label="Sessions"
          aria-expanded={drawerOpen}
          title="Conversations"
          onClick={openDrawer}
        >
          <HistoryIcon />
        </button>
        {state.turnOrder.length ? (
          <h1 className="panel-title" title={state.title}>
            {state.title}
          </h1>
        ) : (
          <h1 className="panel-title panel-brand">
            <BrandMark /> Splitbrain
          </h1>
        )}
        <button type="button" className="button-secondary new-chat" onClick={props.onNewChat} disabled={running}>
          <PlusIcon /> New chat
        </button>
      </header>
      {endpoint?.scripted && (
        <div className="scripted-banner" role="note">
          <strong>Offline demo</strong>: replies come from a local demo on this machine, not from a language model.
          Configure an endpoint in Settings.
        </div>
      )}
      {props.connection === 'failed' && (
        <div className="connection-banner connection-failed" role="alert">
          <span>{props.connectionFailure ?? 'The extension is not answering.'} What you typed is kept.</span>
          <button type="button" className="button-secondary" onClick={props.onRetryConnection}>
            Retry
          </button>
        </div>
      )}
      {(props.connection === 'reconnecting' || (props.connection === 'connected' && state.gap)) && (
        <div className="connection-banner" role="status">
          <Spinner />{' '}
          {props.connection === 'reconnecting'
            ? 'Reconnecting to the extension…'
            : 'Catching up with the conversation log…'}
        </div>
      )}
      {!endpoint && props.endpointLoaded ? (
        <div className="message-list-frame">
          <div className="message-list">
            <OnboardingView onOpenOptions={props.onOpenOptions} shortcut={props.shortcut} />
          </div>
        </div>
      ) : (
        <MessageList
          state={state}
          running={running}
          onRetry={props.onRetry}
          onResend={props.onResend}
          onOpenOptions={props.onOpenOptions}
          onLoadOlder={props.onLoadOlder}
          empty={
            loading ? (
              <ConversationLoading />
            ) : endpoint ? (
              <EmptyConversation
                onSuggest={(text) => setSeed({ text, nonce: Date.now() })}
                pageSuggestion={pageSuggestion(props.page?.page)}
                shortcut={props.shortcut}
              />
            ) : null
          }
        />
      )}
      {props.budgetRefusal && (
        <BudgetRefusal
          message={props.budgetRefusal.message}
          onSendOnce={props.budgetRefusal.onSendOnce}
          onDismiss={props.budgetRefusal.onDismiss}
          onOpenOptions={props.onOpenOptions}
        />
      )}
      {props.error && (
        <div className="panel-error" role="alert">
          <span>{props.error}</span>
          <button type="button" className="icon-button" aria-label="Dismiss error" onClick={props.onDismissError}>
            <CrossIcon />
          </button>
        </div>
      )}
      <div className="status-line" aria-hidden={!status}>
        {status && (
          <>
            <Spinner />
            {status}
          </>
        )}
      </div>
      {props.page && <PageLine {...props.page} />}
      <Composer
        running={running}
        disabled={!endpoint}
        loading={loading}
        seed={seed}
        returned={props.unsent}
        onSend={props.onSend}
        onSteer={props.onSteer}
        onStop={onStop}
        {...props.files}
      />
      <footer className="panel-footer">
        <span className="endpoint-label" title={endpoint ? endpointAddress(endpoint) : undefined}>
          <span
            className="endpoint-dot"
            data-state={endpoint ? (props.connection === 'connected' ? 'ok' : 'busy') : 'off'}
            aria-hidden="true"
          />
          {endpoint ? `${endpointModelName(endpoint)} · ${endpoint.label}` : 'No endpoint configured'}
        </span>
        <UsageLine
          usage={state.usage}
          usageByModel={state.usageByModel}
          className="conversation-usage"
          label="Tokens used in this conversation"
        />
        <button type="button" className="link-button" onClick={props.onOpenOptions}>
          Settings
        </button>
      </footer>
      <div className="visually-hidden" role="status" aria-live="polite">
        {turnAnnouncement(lastTurn)}
      </div>
      {drawerOpen && (
        <SessionDrawer
          sessions={sessions}
          currentSessionId={state.sessionId}
          busySessionId={running ? state.sessionId : undefined}
          onSelect={(sessionId) => closeDrawerThen(() => props.onSelectSession(sessionId))()}
          onNewChat={closeDrawerThen(props.onNewChat)}
          onDelete={props.onDeleteSession}
          onExport={props.onExportSession}
          onClose={() => setDrawerOpen(false)}
        />
      )}
    </div>
  );
}
