import { MemoryEventStore } from '../../lib/session-log/memory-event-store';
import { Runtime, type RuntimeDependencies } from '../../lib/runtime/runtime';
import { SESSION_PROJECTIONS } from '../../lib/runtime/session-projections';

/** What a snapshot head's book is made of in the runtime, for tests that build snapshots without one. */
export const TEST_SNAPSHOT_BOOK = SESSION_PROJECTIONS;

/** Ids `${prefix}1`, `${prefix}2`, … in the order they are asked for. */
export function countingIds(prefix = 'id-'): () => string {
  let count = 0;
  return () => `${prefix}${++count}`;
}

/** A clock that moves `step` forward before each reading: the first reading is `start + step`. */
export function tickingClock(start: number, step: number): () => number {
  let time = start;
  return () => (time += step);
}

/**
 * The one place tests build a Runtime: in-memory events, a stage that answers `{ ok: true }`, a clock fixed at 1
 * and counting ids, each replaced by what a test passes.
 */
export function testRuntime(overrides: Partial<RuntimeDependencies> = {}): Runtime {
  return new Runtime({
    store: new MemoryEventStore(),
    executeTool: async () => ({ ok: true }),
    now: () => 1,
    newId: countingIds(),
    ...overrides,
  });
}
