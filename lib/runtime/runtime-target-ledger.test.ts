import { describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '../files/memory-blob-store';
import { CANVAS_TARGET } from '../../tests/support/authored-target-fixture';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
import type { AgentEvent } from '../protocol/agent-event';
import { MemoryEventStore } from '../session-log/memory-event-store';
import type { Runtime } from './runtime';

const sessionId = 'session-1';
const turnId = 'turn-1';

/** A store that remembers every read of the log: where it started and whether it was a page. */
class WatchedStore extends MemoryEventStore {
  readonly reads: { afterSeq: number; limit: number | undefined }[] = [];

  override read(session: string, afterSeq: number, limit?: number): Promise<AgentEvent[]> {
    this.reads.push({ afterSeq, limit });
    return super.read(session, afterSeq, limit);
  }
}

function runtimeOn(store: MemoryEventStore, blobs: MemoryBlobStore, timers: (() => void)[]): Runtime {
  return testRuntime({
    store,
    blobStore: blobs,
    newId: countingIds('id'),
    snapshots: { every: 1, delayMs: 0, setTimer: (run) => void timers.push(run) },
  });
}

function callOn(runtime: Runtime) {
  let calls = 0;
  return async (toolName: string, input: unknown) =>
    (
      await runtime.executeTool({
        sessionId,
        turnId,
        stepId: 'step',
        toolCallId: `call-${toolName}-${++calls}`,
        toolName,
        input: input as never,
      })
    ).output as Record<string, unknown>;
}

describe('the authored-targets ledger of a restarted runtime', () => {
  it('comes from the snapshot and the log after it, never from a read of the whole log', async () => {
    const store = new WatchedStore();
    const blobs = new MemoryBlobStore();
    const timers: (() => void)[] = [];
    const first = runtimeOn(store, blobs, timers);
    await first.append(sessionId, [
      { type: 'turn/started', sessionId, turnId, time: 1, data: { userItemId: 'user', text: 'make one' } },
    ]);
    const { targetId } = await callOn(first)('createTarget', CANVAS_TARGET);
    for (const run of timers.splice(0)) run();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const head = await store.snapshots.readHead(sessionId);
    expect((head as { book: { targets: unknown[] } }).book.targets).toHaveLength(1);

    store.reads.length = 0;
    const restarted = runtimeOn(store, blobs, timers);
    const [entry] = await restarted.targetArtifacts.entries([sessionId]);
    expect(entry).toMatchObject({ manifest: { id: targetId }, artifact: { version: 1 } });
    const call = callOn(restarted);
    const second = await call('updateTarget', { targetId, baseVersion: 1, html: '<p>two</p>' });
    expect(second).toMatchObject({ ok: true, version: 2, supersedes: 1 });
    expect(await call('updateTarget', { targetId, baseVersion: 1, html: '<p>lost</p>' })).toMatchObject({
      code: 'VERSION_CONFLICT',
      currentVersion: 2,
    });
    const snapshotSeq = (head as { snapshotSeq: number }).snapshotSeq;
    expect(snapshotSeq).toBeGreaterThan(0);
    expect(store.reads.length).toBeGreaterThan(0);
    // Every read starts at the snapshot or later: the log before it is never read again.
    expect(store.reads.filter((read) => read.afterSeq < snapshotSeq)).toEqual([]);
  });
});
