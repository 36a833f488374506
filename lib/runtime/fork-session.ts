import type { BlobStore } from '../files/blob-store';
import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { SessionLock } from '../session-log/session-lock';
import { forkDrafts } from './fork-drafts';

export interface ForkAccess {
  lock: SessionLock;
  now(): number;
  newId(): string;
  read(sessionId: string, afterSeq: number): Promise<AgentEvent[]>;
  /** Records a client's batch, as `Runtime.append` does. */
  append(sessionId: string, drafts: AgentEventDraft[]): Promise<number>;
  blobStore?: BlobStore;
}

/**
 * A new conversation with the history of `sessionId` up to `turnId` (that branch only), its blobs shared by
 * reference: the new conversation's own references keep them after the original is deleted. Returns its id.
 */
export function forkSession(access: ForkAccess, sessionId: string, turnId: string): Promise<string> {
  return access.lock.run(sessionId, async () => {
    const forkId = access.newId();
    const plan = forkDrafts(await access.read(sessionId, 0), turnId, forkId, access.now());
    if (!plan.ok) throw new Error(plan.reason);
    await access.blobStore?.share(sessionId, forkId, plan.blobIds);
    await access.append(forkId, plan.drafts);
    return forkId;
  });
}
