import type { Page } from 'puppeteer-core';
import type { AgentEvent } from '../../lib/protocol/agent-event';

/**
 * Writes a whole session straight into the runtime's IndexedDB in the store's own row format (one row per
 * durable event keyed [sessionId+seq], and the session row), from an extension page (same origin as the runtime).
 * The runtime must have opened its database once (any request does), and must not have loaded this session yet.
 */
export async function writeStoredSession(page: Page, sessionId: string, events: AgentEvent[], title: string) {
  await page.evaluate(
    async (id, rows, sessionTitle) => {
      const reply = await (
        globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<{ ok: boolean }> } } }
      ).chrome.runtime.sendMessage({ type: 'sessions/list' });
      if (!reply.ok) throw new Error('The runtime did not answer sessions/list.');
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('splitbrain');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(new Error(String(request.error)));
      });
      await new Promise<void>((resolve, reject) => {
        const transaction = database.transaction(['sessions', 'events'], 'readwrite');
        const eventStore = transaction.objectStore('events');
        for (const event of rows as { seq: number; toolCallId?: string; time: number }[])
          eventStore.put({
            sessionId: id,
            seq: event.seq,
            ...(event.toolCallId ? { toolCallId: event.toolCallId } : {}),
            event,
          });
        const last = rows.at(-1) as { seq: number; time: number };
        transaction.objectStore('sessions').put({
          sessionId: id,
          title: sessionTitle,
          createdAt: 1,
          updatedAt: last.time,
          lastSeq: last.seq,
        });
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(new Error(String(transaction.error)));
      });
      database.close();
    },
    sessionId,
    events,
    title,
  );
}

/** Makes `sessionId` the conversation the panel opens next. */
export async function openNextInPanel(page: Page, sessionId: string): Promise<void> {
  await page.evaluate(
    (id) =>
      (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local.set({ lastSessionId: id }),
    sessionId,
  );
}

/**
 * Removes a session's stored snapshot (its head and turn rows), as if it were written before snapshots existed.
 * The worker keeps the head it knows in memory: stop it afterwards for the next open to find none.
 */
export async function dropStoredSnapshot(page: Page, sessionId: string): Promise<void> {
  await page.evaluate(async (id) => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('splitbrain');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(String(request.error)));
    });
    await new Promise<void>((resolve, reject) => {
      const transaction = database.transaction(['snapshots', 'snapshotTurns'], 'readwrite');
      transaction.objectStore('snapshots').delete(id);
      transaction.objectStore('snapshotTurns').delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(new Error(String(transaction.error)));
    });
    database.close();
  }, sessionId);
}
