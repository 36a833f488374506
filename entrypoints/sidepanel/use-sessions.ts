import { useCallback, useEffect, useState } from 'react';
import browser from 'webextension-polyfill';
import { errorText } from '@/lib/protocol/error-text';
import type { SessionRecord } from '@/lib/protocol/session-record';
import { callRuntime } from '../shared/call-runtime';
import { exportConversation, importConversation, importNotice } from './conversation-archive';

const LAST_SESSION_KEY = 'lastSessionId';

export interface PanelSessions {
  /** The open conversation: the last one opened in a panel, else a new one. */
  sessionId: string | undefined;
  sessions: SessionRecord[];
  refresh(): void;
  open(sessionId: string): void;
  startNew(): void;
  remove(sessionId: string): void;
  /** Downloads a conversation's log without the API key; `currentTitle` names the open one before it is listed. */
  download(sessionId: string, currentTitle: string | undefined, secrets: string[]): void;
  /** Imports an exported conversation (a `.zip`, or an older `.json`) and opens it. */
  importFile(file: File): void;
  /** What the last import has to tell (a copy with new ids, files missing). */
  notice: string | undefined;
  dismissNotice(): void;
}

/** The conversations the runtime keeps, and which one this panel shows. */
export function useSessions(report: (message: string) => void): PanelSessions {
  const [sessionId, setSessionId] = useState<string>();
  const [sessions, setSessions] = useState<SessionRecord[]>([]);
  const [notice, setNotice] = useState<string>();

  const refresh = useCallback(() => {
    callRuntime({ type: 'sessions/list' }).then(
      (result) => setSessions(result.sessions),
      (reason: unknown) => report(errorText(reason)),
    );
  }, [report]);

  useEffect(() => {
    void browser.storage.local.get(LAST_SESSION_KEY).then((stored) => {
      const last = stored[LAST_SESSION_KEY];
      setSessionId(typeof last === 'string' ? last : crypto.randomUUID());
    });
    refresh();
  }, [refresh]);

  useEffect(() => {
    if (sessionId) void browser.storage.local.set({ [LAST_SESSION_KEY]: sessionId });
  }, [sessionId]);

  const remove = (id: string) =>
    callRuntime({ type: 'session/delete', sessionId: id }).then(
      () => {
        if (id === sessionId) setSessionId(crypto.randomUUID());
        refresh();
      },
      (reason: unknown) => report(`Could not delete the conversation: ${errorText(reason)}`),
    );

  const download = (id: string, currentTitle: string | undefined, secrets: string[]) => {
    const record = sessions.find((session) => session.sessionId === id);
    const title = record?.title ?? (id === sessionId && currentTitle !== undefined ? currentTitle : 'Conversation');
    const header = { sessionId: id, title, createdAt: record?.createdAt, updatedAt: record?.updatedAt };
    exportConversation(header, secrets).catch((reason: unknown) =>
      report(`Could not export the conversation: ${errorText(reason)}`),
    );
  };

  const importFile = (file: File) => {
    setNotice(undefined);
    importConversation(file).then(
      (result) => {
        refresh();
        setSessionId(result.sessionId);
        setNotice(importNotice(result));
      },
      (reason: unknown) => report(`Could not import “${file.name}”: ${errorText(reason)} Nothing was imported.`),
    );
  };

  return {
    sessionId,
    sessions,
    refresh,
    open: setSessionId,
    startNew: () => setSessionId(crypto.randomUUID()),
    remove: (id) => void remove(id),
    download,
    importFile,
    notice,
    dismissNotice: () => setNotice(undefined),
  };
}
