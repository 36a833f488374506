import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SessionRecord } from '@/lib/protocol/session-record';
import type { SearchHit } from '@/lib/protocol/search-hit';
import { filterSessions } from '@/lib/panel/filter-sessions';
import { relativeTime } from '@/lib/panel/relative-time';
import { CrossIcon, DownloadIcon, PlusIcon, SearchIcon, TrashIcon, UploadIcon } from '../shared/icons';
import { useNow } from '../shared/use-now';
import { UsageLine } from '../usage/usage-line';
import { SearchHits } from './search-hits';
import { useConversationSearch, type ConversationSearcher } from './use-conversation-search';

export interface SessionDrawerProps {
  sessions: SessionRecord[];
  currentSessionId: string;
  /** A turn runs in this session: it cannot be deleted or left. */
  busySessionId: string | undefined;
  onSelect(sessionId: string): void;
  onNewChat(): void;
  onDelete(sessionId: string): void;
  onExport(sessionId: string): void;
  /** A conversation export the user picked to import (`.zip`, or an older `.json`). */
  onImport(file: File): void;
  onClose(): void;
  /** Full-text search over every conversation; without it the box filters titles only. */
  onSearch?: ConversationSearcher;
  /** Opens a conversation at the turn a search found. */
  onOpenHit?(hit: SearchHit): void;
}

/** Past conversations: search titles and messages, open, export and import, delete (with a confirmation). */
export function SessionDrawer({
  sessions,
  currentSessionId,
  busySessionId,
  onSelect,
  onNewChat,
  onDelete,
  onExport,
  onImport,
  onClose,
  onSearch,
  onOpenHit,
}: SessionDrawerProps) {
  const [query, setQuery] = useState('');
  const [confirming, setConfirming] = useState<string>();
  const searchRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => searchRef.current?.focus(), []);
  const shown = filterSessions(sessions, query);
  const search = useConversationSearch(onSearch, query);
  const now = useNow(true);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    if (confirming) setConfirming(undefined);
    else onClose();
  };
  return (
    <div className="drawer-backdrop" onClick={onClose}>
      <aside
        className="session-drawer"
        aria-label="Conversations"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <div className="drawer-head">
          <h2>Conversations</h2>
          <button type="button" className="icon-button" aria-label="Close conversations" onClick={onClose}>
            <CrossIcon size={16} />
          </button>
        </div>
        <div className="drawer-search">
          <SearchIcon />
          <input
            ref={searchRef}
            type="search"
            aria-label="Search conversations"
            placeholder="Search conversations"
            value={query}
            onInput={(event) => setQuery(event.currentTarget.value)}
          />
        </div>
        <div className="drawer-actions">
          <button type="button" className="drawer-new" onClick={onNewChat} disabled={busySessionId !== undefined}>
            <PlusIcon /> New conversation
          </button>
          <button
            type="button"
            className="drawer-new"
            title="Import a conversation exported from Splitbrain (.zip, or an older .json)"
            onClick={() => fileRef.current?.click()}
            disabled={busySessionId !== undefined}
          >
            <UploadIcon /> Import
          </button>
          <input
            ref={fileRef}
            type="file"
            hidden
            aria-label="Conversation file to import"
            accept=".zip,.json,application/zip,application/json"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (file) onImport(file);
            }}
          />
        </div>
        <ul className="session-list" aria-label="Sessions">
          {shown.map((session) => {
            const current = session.sessionId === currentSessionId;
            const busy = session.sessionId === busySessionId;
            if (confirming === session.sessionId) {
              return (
                <li key={session.sessionId} className="session-row session-confirm">
                  <span>Delete “{session.title}”? This cannot be undone.</span>
                  <span className="session-confirm-actions">
                    <button type="button" className="button-quiet" onClick={() => setConfirming(undefined)}>
                      Cancel
                    </button>
                    <button
                      type="button"
                      className="button-danger"
                      onClick={() => (setConfirming(undefined), onDelete(session.sessionId))}
                    >
                      Delete
                    </button>
                  </span>
                </li>
              );
            }
            return (
              <li key={session.sessionId} className="session-row" data-current={current || undefined}>
                <button
                  type="button"
                  className="session-open"
                  aria-current={current ? 'true' : undefined}
                  disabled={busySessionId !== undefined && !current}
                  onClick={() => onSelect(session.sessionId)}
                >
                  <span className="session-title">{session.title}</span>
                  <span className="session-time">{relativeTime(session.updatedAt, now)}</span>
                  <UsageLine usage={session.usage} className="session-usage" label="Tokens used" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Export “${session.title}”`}
                  title="Export (a zip of the conversation and its files)"
                  onClick={() => onExport(session.sessionId)}
                >
                  <DownloadIcon />
                </button>
                <button
                  type="button"
                  className="icon-button danger"
                  aria-label={`Delete “${session.title}”`}
                  title={busy ? 'A reply is running in this conversation' : 'Delete'}
                  disabled={busy}
                  onClick={() => setConfirming(session.sessionId)}
                >
                  <TrashIcon />
                </button>
              </li>
            );
          })}
          {shown.length === 0 && (
            <li className="session-empty">{sessions.length ? 'No conversation matches.' : 'No conversations yet.'}</li>
          )}
        </ul>
        {search.active && onOpenHit && (
          <SearchHits
            result={search.result}
            searching={search.searching}
            error={search.error}
            blockedSessionId={busySessionId}
            onOpen={onOpenHit}
          />
        )}
      </aside>
    </div>
  );
}
