import type { AgentEvent } from '../../lib/protocol/agent-event';
import { OpenWork } from '../../lib/session-log/open-work';
import { initialClientState, type ClientState } from '../../lib/state/client-state';
import { reduceEvents, replayLog } from '../../lib/state/reduce-events';
import type { Random } from './random';
import type { GeneratedRun } from './run-generator';

/**
 * What a subscription snapshot taken after `position` live events holds: the durable log so far plus the
 * runtime's transient tail (deltas of items still open), computed the way the runtime's memory is built:
 * a restarted runtime knows only the durable log, then everything it relays after.
 */
export function snapshotAt(run: Pick<GeneratedRun, 'live' | 'restarts'>, position: number): AgentEvent[] {
  const restart = Math.max(0, ...run.restarts.filter((point) => point <= position));
  const openWork = new OpenWork();
  run.live.slice(0, restart).forEach((event) => event.durable && openWork.observe(event));
  run.live.slice(restart, position).forEach((event) => openWork.observe(event));
  return [...run.live.slice(0, position).filter((event) => event.durable), ...openWork.transientTail()];
}

export interface DeliveryStats {
  batches: number;
  duplicates: number;
  reordered: number;
  disconnects: number;
  snapshotResumes: number;
  cursorResumes: number;
  overlaps: number;
  silentLosses: number;
  tailFetches: number;
}

export interface DeliveryResult {
  state: ClientState;
  stats: DeliveryStats;
  /** Broken invariants seen on the way (applied across a gap, pending not what was delivered past it). */
  violations: string[];
}

/**
 * Delivers a run's live stream the hard way: random batches, duplicates (2-10 copies), reordering within a
 * window, events lost in disconnects followed by a resume from a snapshot or from a cursor (sometimes with
 * live and replay overlapping), events lost silently (the gap is filled from the log's tail), and finally the
 * whole log again.
 */
export function deliverChaotically(run: GeneratedRun, random: Random): DeliveryResult {
  const stats: DeliveryStats = {
    batches: 0,
    duplicates: 0,
    reordered: 0,
    disconnects: 0,
    snapshotResumes: 0,
    cursorResumes: 0,
    overlaps: 0,
    silentLosses: 0,
    tailFetches: 0,
  };
  const violations: string[] = [];
  const live = run.live;
  const durableSeqs = new Set<number>();
  let state = initialClientState(run.sessionId);
  let position = 0;

  const durableUpTo = (end: number) => live.slice(0, end).filter((event) => event.durable);
  const apply = (events: AgentEvent[], label: string) => {
    for (const event of events) if (event.durable && event.sessionId === run.sessionId) durableSeqs.add(event.seq);
    state = reduceEvents(state, events);
    checkInvariants(state, durableSeqs, label, violations);
  };
  const fetchTailIfGap = () => {
    if (!state.gap) return;
    stats.tailFetches += 1;
    apply(
      durableUpTo(position).filter((event) => event.seq > state.lastSeq),
      'tail fetch',
    );
  };

  while (position < live.length) {
    const action = random.weighted({ batch: 14, disconnect: 1, silentLoss: 0.6 });
    if (action === 'batch') {
      const end = Math.min(live.length, position + random.int(1, 8));
      const batch = disturb(live.slice(position, end), live.slice(0, end), random, stats);
      position = end;
      stats.batches += 1;
      apply(batch, `batch ending at ${end}`);
      fetchTailIfGap();
      continue;
    }
    if (action === 'silentLoss') {
      stats.silentLosses += 1;
      position = Math.min(live.length, position + random.int(1, 3));
      continue;
    }
    stats.disconnects += 1;
    const reconnectAt = Math.min(live.length, position + random.int(0, 12));
    const overlap = random.chance(0.4) ? random.int(1, 6) : 0;
    if (random.chance(0.5)) {
      stats.snapshotResumes += 1;
      durableSeqs.clear();
      const snapshot = snapshotAt(run, reconnectAt);
      for (const event of snapshot) if (event.durable) durableSeqs.add(event.seq);
      state = replayLog(run.sessionId, snapshot, state.generation + 1);
      checkInvariants(state, durableSeqs, `snapshot at ${reconnectAt}`, violations);
    } else {
      stats.cursorResumes += 1;
      const tail = durableUpTo(reconnectAt).filter((event) => event.seq > state.lastSeq);
      let start = 0;
      while (start < tail.length) {
        const size = random.int(1, 10);
        apply(
          disturb(tail.slice(start, start + size), tail.slice(0, start + size), random, stats),
          `cursor replay at ${reconnectAt}`,
        );
        start += size;
      }
    }
    position = Math.max(0, reconnectAt - overlap);
    if (overlap) stats.overlaps += 1;
  }
  position = live.length;
  fetchTailIfGap();
  apply(disturb(run.log, run.log, random, stats), 'full replay');
  return { state, stats, violations };
}

/** Adds 2-10 copies of some events (from this batch or earlier) and swaps neighbours within a small window. */
function disturb(batch: AgentEvent[], seen: AgentEvent[], random: Random, stats: DeliveryStats): AgentEvent[] {
  const result = [...batch];
  if (seen.length > 0 && random.chance(0.5)) {
    const copies = random.int(2, 10);
    const event = random.pick(random.chance(0.5) ? seen : batch.length ? batch : seen);
    for (let copy = 0; copy < copies; copy++) result.splice(random.int(0, result.length), 0, event);
    stats.duplicates += copies;
  }
  if (random.chance(0.4)) {
    const window = random.int(1, 4);
    for (let index = 0; index < result.length; index++) {
      if (!random.chance(0.3)) continue;
      const other = Math.min(result.length - 1, index + random.int(1, window));
      [result[index], result[other]] = [result[other], result[index]];
      stats.reordered += 1;
    }
  }
  return result;
}

/** Nothing is applied across a gap, and whatever waits past it is exactly what was delivered past it. */
function checkInvariants(state: ClientState, delivered: Set<number>, label: string, violations: string[]): void {
  let contiguous = 0;
  while (delivered.has(contiguous + 1)) contiguous += 1;
  if (state.lastSeq !== contiguous)
    violations.push(`${label}: lastSeq ${state.lastSeq}, contiguous delivered ${contiguous}`);
  const waiting = [...delivered].filter((seq) => seq > contiguous).sort((left, right) => left - right);
  const pending = state.pending.map((event) => event.seq);
  if (waiting.join(',') !== pending.join(','))
    violations.push(`${label}: pending [${pending}] but delivered past the gap [${waiting}]`);
  if (Boolean(state.gap) !== waiting.length > 0)
    violations.push(`${label}: gap ${JSON.stringify(state.gap)} with ${waiting.length} waiting`);
}
