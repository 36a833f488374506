import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import type { PublisherMessage } from '../protocol/runtime-message';
import { snapshotAt } from '../../tests/support/delivery';
import { EventLog } from '../../tests/support/event-log';
import { FakeTransport, ManualScheduler, settle } from '../../tests/support/fake-sync';
import { firstDifference, meaningfulState } from '../../tests/support/meaningful-state';
import { Random } from '../../tests/support/random';
import { generateRun } from '../../tests/support/run-generator';
import { itemKey, itemOf, type ClientState } from './client-state';
import { replayLog } from './reduce-events';
import { SessionSync } from './session-sync';

const turn = { turnId: 'turn-1', stepId: 'step-1', attemptId: 'attempt-1' };
const item = { ...turn, itemId: 'item-1' };

function setup() {
  const transport = new FakeTransport();
  const scheduler = new ManualScheduler();
  const changes: ClientState[] = [];
  const sync = new SessionSync('session-1', transport, (state) => changes.push(state), scheduler);
  return { transport, scheduler, changes, sync };
}

function snapshot(generation: number, events: AgentEvent[]): PublisherMessage {
  const snapshotSeq = events.filter((event) => event.durable).at(-1)?.seq ?? 0;
  return { type: 'events/snapshot', sessionId: 'session-1', generation, snapshotSeq, events };
}

function live(generation: number, event: AgentEvent): PublisherMessage {
  return { type: 'events/live', generation, event };
}

/** session/created, turn started, step started, three deltas, completed, turn completed. */
function streamedTurn(): EventLog {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Particles' } });
  log.turnStarted('turn-1');
  log.stepStarted(turn);
  log.delta(item, 0, 'Speed ');
  log.delta(item, 1, 'is ');
  log.delta(item, 2, '12.');
  log.completed(item, 'Speed is 12.');
  log.turnCompleted('turn-1');
  return log;
}

describe('SessionSync', () => {
  it('applies the snapshot, then live events of its generation; deltas once per frame, durable events at once', () => {
    const { transport, scheduler, changes, sync } = setup();
    const log = streamedTurn();
    sync.connect();
    expect(transport.subscriptions).toEqual([{ sessionId: 'session-1', generation: 1 }]);
    sync.receive(snapshot(1, log.events.slice(0, 3)));
    expect(sync.current.turns['turn-1'].status).toBe('running');
    expect(sync.current.generation).toBe(1);

    const changesBefore = changes.length;
    sync.receive(live(1, log.events[3]));
    sync.receive(live(1, log.events[4]));
    expect(changes.length).toBe(changesBefore);
    scheduler.runFrames();
    expect(changes.length).toBe(changesBefore + 1);
    expect(itemOf(sync.current, itemKey('item-1', 'attempt-1'))?.text).toBe('Speed is ');

    sync.receive(live(1, log.events[5]));
    sync.receive(live(1, log.events[6]));
    expect(itemOf(sync.current, itemKey('item-1', 'attempt-1'))).toMatchObject({
      text: 'Speed is 12.',
      status: 'completed',
    });
    scheduler.runFrames();
    scheduler.runTimers();
    sync.receive(live(1, log.events[7]));
    expect(sync.current).toEqual(replayLog('session-1', log.events, 1));
  });

  it('falls back to its timer when no frame comes (hidden panel)', () => {
    const { scheduler, sync } = setup();
    const log = streamedTurn();
    sync.connect();
    sync.receive(snapshot(1, log.events.slice(0, 3)));
    sync.receive(live(1, log.events[3]));
    expect(scheduler.timers).toHaveLength(1);
    scheduler.runTimers();
    expect(itemOf(sync.current, itemKey('item-1', 'attempt-1'))?.text).toBe('Speed ');
  });

  it('discards everything an old connection sends once a new one exists (old connection revived)', () => {
    const { transport, sync } = setup();
    const log = streamedTurn();
    sync.connect();
    sync.connect();
    expect(transport.lastGeneration).toBe(2);
    sync.receive(snapshot(2, log.events.slice(0, 3)));
    const current = sync.current;
    sync.receive(snapshot(1, log.events));
    sync.receive(live(1, log.events[6]));
    sync.receive(live(1, log.events[7]));
    expect(sync.current).toBe(current);
    expect(sync.current.turns['turn-1'].status).toBe('running');
    sync.receive(live(2, log.events[6]));
    expect(sync.current.turns['turn-1'].entries).toHaveLength(1);
  });

  it('fills a gap from the log tail without reconnecting', async () => {
    const { transport, sync } = setup();
    const log = streamedTurn();
    transport.log = log.durable;
    sync.connect();
    sync.receive(snapshot(1, log.events.slice(0, 3)));
    sync.receive(live(1, log.events[7]));
    expect(sync.current.gap).toEqual({ expected: 4, received: 5 });
    await settle();
    expect(transport.tailReads).toEqual([{ sessionId: 'session-1', afterSeq: 3 }]);
    expect(sync.current.gap).toBeNull();
    expect(meaningfulState(sync.current)).toEqual(meaningfulState(replayLog('session-1', log.events)));
    expect(transport.subscriptions).toHaveLength(1);
  });

  it('reloads everything through a new subscription when the tail cannot be read (permanently missing event)', async () => {
    const { transport, sync } = setup();
    const log = streamedTurn();
    transport.failTail = true;
    sync.connect();
    sync.receive(snapshot(1, log.events.slice(0, 3)));
    sync.receive(live(1, log.events[7]));
    await settle();
    expect(transport.tailReads).toHaveLength(1);
    expect(transport.lastGeneration).toBe(2);
    expect(sync.current.gap).not.toBeNull();
    sync.receive(snapshot(2, log.events));
    expect(sync.current.gap).toBeNull();
    expect(sync.current).toEqual(replayLog('session-1', log.events, 2));
  });

  it('reloads everything when the tail comes back without the missing event', async () => {
    const { transport, sync } = setup();
    const log = streamedTurn();
    transport.log = log.durable.filter((event) => event.seq !== 4);
    sync.connect();
    sync.receive(snapshot(1, log.events.slice(0, 3)));
    sync.receive(live(1, log.events[7]));
    await settle();
    expect(transport.lastGeneration).toBe(2);
    expect(sync.current.gap).toEqual({ expected: 4, received: 5 });
  });

  it('applies events queued for a frame before a new snapshot replaces the state', () => {
    const { scheduler, sync } = setup();
    const log = streamedTurn();
    sync.connect();
    sync.receive(snapshot(1, log.events.slice(0, 3)));
    sync.receive(live(1, log.events[3]));
    sync.receive(snapshot(1, log.events.slice(0, 4)));
    expect(scheduler.frames).toHaveLength(1);
    scheduler.runFrames();
    expect(itemOf(sync.current, itemKey('item-1', 'attempt-1'))?.text).toBe('Speed ');
  });

  it('ignores a snapshot of another session and error messages', () => {
    const { sync } = setup();
    const other = new EventLog('session-2');
    other.turnStarted('turn-x');
    sync.connect();
    const before = sync.current;
    sync.receive({
      type: 'events/snapshot',
      sessionId: 'session-2',
      generation: 1,
      snapshotSeq: 1,
      events: other.events,
    });
    sync.receive({ type: 'events/error', message: 'Invalid subscriber message' });
    expect(sync.current).toBe(before);
  });

  it('ignores a live event of another session arriving with its generation', () => {
    const { sync } = setup();
    const log = streamedTurn();
    const other = new EventLog('session-2');
    other.add({ type: 'session/created', data: { title: 'Elsewhere' } });
    other.turnStarted('turn-x');
    sync.connect();
    sync.receive(snapshot(1, log.events.slice(0, 1)));
    const before = sync.current;
    for (const event of other.events) sync.receive(live(1, event));
    expect(sync.current).toBe(before);
    expect(sync.current.turns['turn-x']).toBeUndefined();
  });

  it('once closed, hands over no state: neither a frame scheduled before nor a message after', () => {
    const { scheduler, changes, sync } = setup();
    const log = streamedTurn();
    sync.connect();
    sync.receive(snapshot(1, log.events.slice(0, 3)));
    sync.receive(live(1, log.events[3]));
    const changesBefore = changes.length;
    sync.close();
    scheduler.runFrames();
    scheduler.runTimers();
    sync.receive(live(1, log.events[4]));
    sync.receive(snapshot(1, log.events));
    expect(changes).toHaveLength(changesBefore);
  });
});

describe('SessionSync over a real run with reconnects, revived old connections and failing tail reads', () => {
  it('ends in the state of the complete ordered stream', async () => {
    const divergences: string[] = [];
    let runs = 0;
    let reconnects = 0;
    let staleMessages = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        async (runSeed, deliverySeed) => {
          runs += 1;
          const run = await generateRun(runSeed);
          const random = new Random(deliverySeed);
          const transport = new FakeTransport();
          const scheduler = new ManualScheduler();
          const sync = new SessionSync(run.sessionId, transport, () => undefined, scheduler);
          let position = 0;
          const stale: PublisherMessage[] = [];
          // The runtime answers a subscription with a snapshot of the log so far, then relays what comes after.
          const answerSubscription = () => {
            const generation = transport.lastGeneration;
            const events = snapshotAt(run, position);
            sync.receive({
              type: 'events/snapshot',
              sessionId: run.sessionId,
              generation,
              snapshotSeq: events.filter((event) => event.durable).at(-1)?.seq ?? 0,
              events,
            });
          };
          sync.connect();
          answerSubscription();
          while (position < run.live.length) {
            transport.log = run.live.slice(0, position).filter((event) => event.durable);
            transport.failTail = random.chance(0.3);
            const roll = random.next();
            if (roll < 0.06) {
              // The port drops: what was in flight is lost, the old port may still deliver later.
              reconnects += 1;
              const oldGeneration = transport.lastGeneration;
              for (const event of run.live.slice(position, position + random.int(0, 4)))
                stale.push({ type: 'events/live', generation: oldGeneration, event });
              if (random.chance(0.3))
                stale.push({
                  type: 'events/snapshot',
                  sessionId: run.sessionId,
                  generation: oldGeneration,
                  snapshotSeq: 0,
                  events: snapshotAt(run, random.int(0, position)),
                });
              position = Math.min(run.live.length, position + random.int(0, 6));
              sync.connect();
              answerSubscription();
            } else if (roll < 0.1 && stale.length) {
              staleMessages += 1;
              sync.receive(stale.shift()!);
            } else if (roll < 0.13) {
              position += 1; // lost without a disconnect: only gap detection can notice
            } else {
              const generation = transport.lastGeneration;
              sync.receive({ type: 'events/live', generation, event: run.live[position] });
              position += 1;
            }
            if (random.chance(0.3)) scheduler.runFrames();
            if (random.chance(0.1)) scheduler.runTimers();
            if (random.chance(0.2)) await settle();
            // A reconnect the sync asked for (full reload) is answered like any other subscription.
            if (
              transport.subscriptions.length > 0 &&
              sync.current.generation !== transport.lastGeneration &&
              random.chance(0.8)
            )
              answerSubscription();
          }
          transport.log = run.log;
          transport.failTail = false;
          for (const message of stale) sync.receive(message);
          // The last durable event once more: a loss at the very end shows up as a gap like any other.
          const lastDurable = run.log.at(-1);
          if (lastDurable)
            sync.receive({ type: 'events/live', generation: transport.lastGeneration, event: lastDurable });
          scheduler.runFrames();
          await settle();
          if (sync.current.generation !== transport.lastGeneration) answerSubscription();
          scheduler.runFrames();
          const difference = firstDifference(
            meaningfulState(replayLog(run.sessionId, run.live)),
            meaningfulState(sync.current),
          );
          if (difference || sync.current.gap)
            divergences.push(
              `run ${runSeed} delivery ${deliverySeed}: ${difference ?? `gap ${JSON.stringify(sync.current.gap)}`}`,
            );
        },
      ),
      { numRuns: 300 },
    );
    console.log(
      `[property] session sync: runs=${runs} divergences=${divergences.length} reconnects=${reconnects} staleMessages=${staleMessages}`,
    );
    expect(runs).toBeGreaterThanOrEqual(300);
    expect(divergences.slice(0, 5)).toEqual([]);
  }, 120_000);
});
