import { useEffect, useMemo, useState } from 'react';
import type { SessionRecord } from '@/lib/protocol/session-record';
import type { ConnectionStatus } from '@/lib/panel/connection-watch';
import { statusText } from '@/lib/panel/status-text';
import type { CurrentPageView } from '@/lib/protocol/current-page';
import { turnAnnouncement } from '@/lib/panel/turn-announcement';
import { endpointAddress, endpointModelName, type EndpointSettings } from '@/lib/settings/endpoint-settings';
import type { ClientState } from '@/lib/state/client-state';
import { isHistoryLoaded } from '@/lib/state/history-loaded';
import { pageSuggestion } from '@/lib/panel/page-suggestion';
import { Composer, type ComposerProps } from './composer';
import { ConversationLoading } from './conversation-loading';
import { EmptyConversation } from './empty-conversation';
import { BrandMark, CrossIcon, HistoryIcon, PlusIcon, Spinner } from '../shared/icons';
import { MessageList } from './message-list';
import { OnboardingView } from './onboarding-view';
import { SessionDrawer } from './session-drawer';
import { BudgetRefusal } from '../usage/budget-refusal';
import { UsageLine } from '../usage/usage-line';
import { ContextMeterLine } from '../usage/context-meter-line';
import { PageLine } from './page-line';
import { PauseBar } from './pause-bar';
import { AppContextNotes } from './app-context-notes';
import { pendingAppContexts } from '@/lib/state/app-contexts';
import { isPausePending, pausedTurnOf } from '@/lib/panel/paused-turn';
import { PanelActionsContext, usePanelActions } from '../shared/panel-actions';
import { RunTimelineView } from './run-timeline-view';
import type { PanelShortcut } from './shortcut-hint';
import type { TurnJump } from '@/lib/panel/turn-jump';

export interface ChatPanelProps {
  state: ClientState;
  endpoint: EndpointSettings | undefined;
  /** False until the stored endpoint has been read, so the onboarding view does not flash. */
  endpointLoaded: boolean;
  running: boolean;
  /** The link to the runtime, and what failed once it has not answered for too long. */
  connection: { status: ConnectionStatus; failure?: string };
  sessions: SessionRecord[];
  error: string | undefined;
  /** Something the user should know that is no error (an import that became a copy). */
  notice?: string | undefined;
  /** Why the runtime refused the last message at a budget (the notice can send it once over). */
  budgetRefusal?: string;
  /** A message that could not be recorded, handed back to the composer; `nonce` changes each time. */
  unsent?: { text: string; nonce: number };
  /** The keyboard shortcut that opens the panel, shown in the empty and onboarding views. */
  shortcut?: PanelShortcut;
  /** The composer's files: what is attached, and why they cannot be sent. */
  files?: Pick<ComposerProps, 'attachments' | 'attachmentRefusal'>;
  /** The page the page tools act on, shown above the composer. */
  page?: CurrentPageView;
  /** A turn to show (an opened search result). */
  jumpTo?: TurnJump;
}

export function ChatPanel(props: ChatPanelProps) {
  const { state, endpoint, running, sessions } = props;
  const panelActions = usePanelActions();
  const [timeline, setTimeline] = useState<{ turnId?: string }>();
  // The timeline opens here, from the header or a turn: the cards below ask for it through the same actions.
  const actions = useMemo(
    () => ({
      ...panelActions,
      openTimeline: (turnId?: string) => setTimeline(turnId ? { turnId } : {}),
    }),
    [panelActions],
  );
  const { stop } = actions;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [seed, setSeed] = useState<{ text: string; nonce: number }>();
  const lastTurn = state.turns[state.turnOrder.at(-1) ?? ''];
  const status = statusText(state, running);
  const loading = !isHistoryLoaded(state);
  const { appContexts, turns, turnOrder, branches } = state;
  // What the apps told the model that the next message carries: shown before it is sent.
  const pendingContexts = useMemo(
    () => pendingAppContexts({ appContexts, turns, turnOrder, branches }),
    [appContexts, turns, turnOrder, branches],
  );

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && running && !event.defaultPrevented) stop();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [running, stop]);

  const openDrawer = () => {
    actions.refreshSessions();
    setDrawerOpen(true);
  };
  const closeDrawerThen = (action: () => void) => () => {
    setDrawerOpen(false);
    action();
  };

  return (
    <PanelActionsContext.Provider value={actions}>
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
          {state.turnOrder.length > 0 && (
            <button
              type="button"
              className="button-quiet timeline-open"
              title="Every model request, tool call, approval and error of this conversation"
              onClick={() => actions.openTimeline()}
            >
              Timeline
            </button>
          )}
          <button type="button" className="button-secondary new-chat" onClick={actions.newChat} disabled={running}>
            <PlusIcon /> New chat
          </button>
        </header>
        {endpoint?.scripted && (
          <div className="scripted-banner" role="note">
            <strong>Offline demo</strong>: replies come from a local demo on this machine, not from a language model.
            Configure an endpoint in Settings.
          </div>
        )}
        {props.connection.status === 'failed' && (
          <div className="connection-banner connection-failed" role="alert">
            <span>{props.connection.failure ?? 'The extension is not answering.'} What you typed is kept.</span>
            <button type="button" className="button-secondary" onClick={actions.retryConnection}>
              Retry
            </button>
          </div>
        )}
        {(props.connection.status === 'reconnecting' || (props.connection.status === 'connected' && state.gap)) && (
          <div className="connection-banner" role="status">
            <Spinner />{' '}
            {props.connection.status === 'reconnecting'
              ? 'Reconnecting to the extension…'
              : 'Catching up with the conversation log…'}
          </div>
        )}
        {!endpoint && props.endpointLoaded ? (
          <div className="message-list-frame">
            <div className="message-list">
              <OnboardingView shortcut={props.shortcut} />
            </div>
          </div>
        ) : (
          <MessageList
            state={state}
            running={running}
            jumpTo={props.jumpTo}
            empty={
              loading ? (
                <ConversationLoading />
              ) : endpoint ? (
                <EmptyConversation
                  onSuggest={(text) => setSeed({ text, nonce: Date.now() })}
                  pageSuggestion={pageSuggestion(props.page)}
                  shortcut={props.shortcut}
                />
              ) : null
            }
          />
        )}
        {props.budgetRefusal && <BudgetRefusal message={props.budgetRefusal} />}
        {props.error && (
          <div className="panel-error" role="alert">
            <span>{props.error}</span>
            <button type="button" className="icon-button" aria-label="Dismiss error" onClick={actions.dismissError}>
              <CrossIcon />
            </button>
          </div>
        )}
        {props.notice && (
          <div className="panel-notice" role="status">
            <span>{props.notice}</span>
            <button type="button" className="icon-button" aria-label="Dismiss notice" onClick={actions.dismissNotice}>
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
        <AppContextNotes contexts={pendingContexts} pending />
        <PauseBar
          running={running}
          pausing={running && isPausePending(state, lastTurn?.turnId)}
          paused={!running && pausedTurnOf(state) !== undefined}
        />
        <PageLine page={props.page} />
        <Composer
          running={running}
          paused={!running && pausedTurnOf(state) !== undefined}
          disabled={!endpoint}
          loading={loading}
          conversationId={state.sessionId}
          seed={seed}
          returned={props.unsent}
          {...props.files}
        />
        <footer className="panel-footer">
          <span className="endpoint-label" title={endpoint ? endpointAddress(endpoint) : undefined}>
            <span
              className="endpoint-dot"
              data-state={endpoint ? (props.connection.status === 'connected' ? 'ok' : 'busy') : 'off'}
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
          <ContextMeterLine
            lastPrompt={state.lastPrompt}
            compactions={state.compactions?.length ?? 0}
            endpoint={endpoint}
            {...(!running && !pausedTurnOf(state) && state.turnOrder.length > 1 ? { onCompact: actions.compact } : {})}
          />
          <button type="button" className="link-button" onClick={actions.openOptions}>
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
            onSelect={(sessionId) => closeDrawerThen(() => actions.selectSession(sessionId))()}
            onNewChat={closeDrawerThen(actions.newChat)}
            onDelete={actions.deleteSession}
            onExport={actions.exportSession}
            onImport={(file) => closeDrawerThen(() => actions.importSession(file))()}
            onClose={() => setDrawerOpen(false)}
            onSearch={actions.searchConversations}
            onOpenHit={(hit) => closeDrawerThen(() => actions.openSearchHit(hit))()}
          />
        )}
        {timeline && (
          <RunTimelineView
            key={timeline.turnId ?? 'conversation'}
            sessionId={state.sessionId}
            {...(timeline.turnId ? { turnId: timeline.turnId } : {})}
            onClose={() => setTimeline(undefined)}
          />
        )}
      </div>
    </PanelActionsContext.Provider>
  );
}
