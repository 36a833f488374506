import type { EventStore } from '../session-log/event-store';
import type { ConversationSearch } from '../search/conversation-search';

/** The log, telling the search what each append stored and which conversation was deleted, once it is so. */
export function indexedEventStore(
  store: EventStore,
  search: Pick<ConversationSearch, 'noteCommitted' | 'forget'>,
): EventStore {
  return {
    ...bound(store),
    append: async (sessionId, events, batchId) => {
      await store.append(sessionId, events, batchId);
      search.noteCommitted(sessionId, events);
    },
    deleteSession: async (sessionId) => {
      await store.deleteSession(sessionId);
      await search.forget(sessionId);
    },
  };
}

function bound(store: EventStore): EventStore {
  return {
    lastSeq: (sessionId) => store.lastSeq(sessionId),
    append: (sessionId, events, batchId) => store.append(sessionId, events, batchId),
    lastBatchId: (sessionId) => store.lastBatchId(sessionId),
    read: (sessionId, afterSeq, limit) => store.read(sessionId, afterSeq, limit),
    readToolCall: (sessionId, toolCallId) => store.readToolCall(sessionId, toolCallId),
    listSessions: () => store.listSessions(),
    deleteSession: (sessionId) => store.deleteSession(sessionId),
    ...(store.snapshots ? { snapshots: store.snapshots } : {}),
  };
}
