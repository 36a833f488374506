import Dexie from 'dexie';
import { z } from 'zod';
import { DexieEventStore, openSplitbrainDatabase } from '../../lib/storage/dexie-event-store';
import { replayLog } from '../../lib/state/reduce-events';
import { syntheticLog } from './synthetic-log';

// As in the extension, whose CSP forbids eval.
z.config({ jitless: true });

const EVENT_COUNT = 100_000;
const SESSION = 'bench-session';

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<Record<string, number>> {
  const database = openSplitbrainDatabase(`bench-${Date.now()}`);
  const store = new DexieEventStore(database);
  const log = syntheticLog(SESSION, EVENT_COUNT);
  for (let start = 0; start < log.length; start += 2_000) await store.append(SESSION, log.slice(start, start + 2_000));

  const rawRead: number[] = [];
  const rebuild: number[] = [];
  const reduceOnly: number[] = [];
  for (let round = 0; round < 5; round++) {
    let started = performance.now();
    const rows = await database.events
      .where('[sessionId+seq]')
      .between([SESSION, Dexie.minKey], [SESSION, Dexie.maxKey])
      .toArray();
    rawRead.push(performance.now() - started);
    if (rows.length !== EVENT_COUNT) throw new Error(`read ${rows.length} rows`);

    started = performance.now();
    const state = replayLog(SESSION, await store.read(SESSION, 0));
    rebuild.push(performance.now() - started);
    if (state.lastSeq !== EVENT_COUNT) throw new Error(`rebuilt to seq ${state.lastSeq}`);

    started = performance.now();
    replayLog(SESSION, log);
    reduceOnly.push(performance.now() - started);
  }
  await database.delete();
  const raw = median(rawRead);
  const full = median(rebuild);
  const reducer = median(reduceOnly);
  return {
    events: EVENT_COUNT,
    rawReadMs: Math.round(raw),
    rebuildMs: Math.round(full),
    rebuildOverRawRead: Number((full / raw).toFixed(2)),
    reducerMs: Math.round(reducer),
    reducerEventsPerSecond: Math.round(EVENT_COUNT / (reducer / 1000)),
  };
}

main().then(
  (figures) => console.log(`BENCH ${JSON.stringify({ name: 'event-log rebuild', ...figures })}`),
  (error: unknown) => console.log(`BENCH-ERROR ${String(error)}`),
);
