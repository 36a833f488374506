/**
 * Tool round trip, agent side → runtime → stage → target frame → back, beside its floor (floor-relay.ts),
 * in the real test build in Debian Chromium. Every figure is a round trip timed with performance.now()
 * (100 µs resolution in these pages) around one awaited call:
 *
 *   ping     extension frame ⇄ background (runtime.sendMessage, answered at once): the first hop alone.
 *   portPing the same over one long-lived runtime port instead of a sendMessage per call.
 *   stageLeg background ⇄ stage page ⇄ sandboxed echo frame, timed inside the worker: the rest of the floor.
 *   floor    ping + stageLeg as one chain of bare messages: extension frame → sendMessage → background →
 *            port → stage → postMessage → sandboxed frame, and back.
 *   durableFloor      the floor plus the two bare IndexedDB commits at-most-once needs, in the worker (see
 *            floor-relay.ts): copies of the product's own rows for a call, into a scratch database of the same shape.
 *   durablePortFloor  the same chain begun on a long-lived runtime port instead of a sendMessage.
 *   manual   `tool/manual` setParameter from an extension page: the same hops plus the product's logic
 *            (zod validation of the request and every wire message, catalog, checkChanges, stage link and
 *            target channel, the bridge and the target's apply, the applied state back, the target's
 *            values handed to the coalescing writer that saves them to storage.local at most every 200 ms),
 *            without the event log.
 *   execute  `tool/execute` setParameter, as the side panel's agent loop sends it (fresh toolCallId each call,
 *            fixed session/turn/step) over the runtime's `calls` port: manual plus the runtime's durable writes
 *            (tool/requested and tool/started in one IndexedDB transaction, tool/completed in another, each
 *            committed before the call goes on) and its replay lookup (in memory for a call id the session has
 *            never seen). The page sends the product's envelope; the panel's checks of the reply are not timed.
 *   executeBySendMessage  the same request by runtime.sendMessage, as the product sent it before the port.
 *
 *   worker*  single operations the product does per call, timed alone inside the service worker:
 *            storage.local get/set (before they were kept in memory and coalesced, the user-target list was
 *            read and the applied values written on every call),
 *            an IndexedDB readwrite transaction of get + put + put issued at once, the same issued one after
 *            another (as awaits inside a Dexie transaction do), and a readonly index lookup (readToolCall).
 *
 *   memoryLog* floor and execute again, in a second build of the same code whose runtime keeps its event log in
 *            memory (WXT_MEMORY_EVENT_LOG): the difference to execute is what the two durable writes cost a call.
 *
 * The six run interleaved in blocks of 100 (1,000 calls each), after 100 warm-up calls each,
 * against the slow-counter fixture (bridge + a trivial app); executeParticles runs against the particle field.
 * The stage and the control page (standing in for the side panel) are both visible, each in its own window.
 * hostLoadAverage1m is the machine's load when the run ended: on a shared machine compare ratios, not times.
 */
import { loadavg } from 'node:os';
import type { Page, WebWorker } from 'puppeteer-core';
import { launchExtension } from '../e2e/extension-harness';
import { benchExtensionBuild } from './extension-build';
import {
  allowNamedFunctions,
  installFloorSender,
  installStageRelay,
  installWorkerRelay,
  timeDurablePortFloor,
  timeFloor,
  timePortPing,
  timeStageLeg,
  useRowsOf,
} from './floor-relay';

const CALLS = 1_000;
const BLOCK = 100;
const WARMUP = 100;

interface BenchChrome {
  runtime: {
    sendMessage(message: unknown): Promise<{ ok: boolean; error?: string; result?: unknown }>;
    connect(options: { name: string }): {
      postMessage(message: unknown): void;
      onMessage: { addListener(listener: (message: unknown) => void): void };
    };
  };
  storage: { local: { get(key: string): Promise<unknown>; set(items: Record<string, unknown>): Promise<void> } };
}

type ToolPath = 'manual' | 'execute' | 'executeBySendMessage';

/**
 * Times `count` setParameter calls of one parameter through `tool/manual` or `tool/execute` (over the `calls` port,
 * or by sendMessage), checking each applied value.
 */
function timeTool(
  control: Page,
  path: ToolPath,
  param: string,
  modulo: number,
  first: number,
  count: number,
  sessionId: string,
): Promise<number[]> {
  return control.evaluate(
    async (kind, name, range, start, total, session) => {
      const scope = globalThis as unknown as {
        chrome: BenchChrome;
        benchCalls?: { postMessage(message: unknown): void };
        benchAnswer?: (message: { response: { ok: boolean; error?: string; result?: unknown } }) => void;
      };
      const chrome = scope.chrome;
      if (!scope.benchCalls) {
        const port = chrome.runtime.connect({ name: 'calls' });
        port.onMessage.addListener((message) => scope.benchAnswer?.(message as never));
        scope.benchCalls = port;
      }
      const calls = scope.benchCalls;
      const overPort = (request: unknown) =>
        new Promise<{ ok: boolean; error?: string; result?: unknown }>((resolve) => {
          scope.benchAnswer = (message) => resolve(message.response);
          calls.postMessage({ type: 'call/request', callId: crypto.randomUUID(), request });
        });
      const samples: number[] = [];
      for (let index = start; index < start + total; index++) {
        const value = index % range;
        const input = { param: name, value };
        const request =
          kind === 'manual'
            ? { type: 'tool/manual', toolName: 'setParameter', input }
            : {
                type: 'tool/execute',
                sessionId: session,
                turnId: `${session}-turn`,
                stepId: `${session}-step`,
                toolCallId: `${session}-${kind}-${index}`,
                toolName: 'setParameter',
                input,
              };
        const started = performance.now();
        const response = kind === 'execute' ? await overPort(request) : await chrome.runtime.sendMessage(request);
        samples.push(performance.now() - started);
        const result = response.result as
          { output?: { applied?: Record<string, unknown> }; status?: string } | undefined;
        if (
          !response.ok ||
          result?.output?.applied?.[name] !== value ||
          (kind !== 'manual' && result.status !== 'completed')
        ) {
          throw new Error(`${kind} call ${index} failed: ${JSON.stringify(response)}`);
        }
      }
      return samples;
    },
    path,
    param,
    modulo,
    first,
    count,
    sessionId,
  );
}

/** What the product does per call besides messaging, timed alone inside the service worker. */
function timeWorkerStorage(
  worker: WebWorker,
  count: number,
): Promise<{
  storageGet: number[];
  storageSet: number[];
  idbWrite: number[];
  idbSequentialWrite: number[];
  idbRead: number[];
}> {
  return worker.evaluate(async (total) => {
    const chrome = (globalThis as unknown as { chrome: BenchChrome }).chrome;
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('bench-scratch', 1);
      request.onupgradeneeded = () =>
        request.result.createObjectStore('rows', { keyPath: 'id' }).createIndex('call', 'call');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const storageGet: number[] = [];
    const storageSet: number[] = [];
    const idbWrite: number[] = [];
    const idbRead: number[] = [];
    const idbSequentialWrite: number[] = [];
    for (let index = 0; index < total; index++) {
      let started = performance.now();
      await chrome.storage.local.get('userTargets');
      storageGet.push(performance.now() - started);
      started = performance.now();
      await chrome.storage.local.set({ 'bench:values': { count: index } });
      storageSet.push(performance.now() - started);
      started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const transaction = database.transaction('rows', 'readwrite');
        const rows = transaction.objectStore('rows');
        rows.get('session');
        rows.put({ id: `row-${index}`, call: `call-${index}`, event: { type: 'tool/started', seq: index } });
        rows.put({ id: 'session', updatedAt: index });
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
      });
      idbWrite.push(performance.now() - started);
      // The same three requests, each issued when the previous one succeeded (as awaits inside a Dexie transaction do).
      started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const transaction = database.transaction('rows', 'readwrite');
        const rows = transaction.objectStore('rows');
        rows.get('session').onsuccess = () => {
          rows.put({
            id: `sequential-${index}`,
            call: `sequential-${index}`,
            event: { type: 'tool/started', seq: index },
          }).onsuccess = () => rows.put({ id: 'session', updatedAt: index });
        };
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
      });
      idbSequentialWrite.push(performance.now() - started);
      started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const request = database
          .transaction('rows', 'readonly')
          .objectStore('rows')
          .index('call')
          .getAll(`call-${index + 1}`);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      });
      idbRead.push(performance.now() - started);
    }
    database.close();
    return { storageGet, storageSet, idbWrite, idbSequentialWrite, idbRead };
  }, count);
}

/** Progress goes to stderr; stdout carries only the figures. */
function progress(step: string): void {
  process.stderr.write(`[tool round trip] ${step}\n`);
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

function round(value: number, digits = 3): number {
  return Number(value.toFixed(digits));
}

function summary(prefix: string, samples: number[]): Record<string, number> {
  return {
    [`${prefix}P50Ms`]: round(percentile(samples, 0.5)),
    [`${prefix}P99Ms`]: round(percentile(samples, 0.99)),
    [`${prefix}MeanMs`]: round(samples.reduce((sum, sample) => sum + sample, 0) / samples.length),
  };
}

async function openTarget(control: Page, targetId: string): Promise<void> {
  const response = await control.evaluate(
    (id) =>
      (globalThis as unknown as { chrome: BenchChrome }).chrome.runtime.sendMessage({
        type: 'tool/manual',
        toolName: 'openTarget',
        input: { targetId: id },
      }),
    targetId,
  );
  if (!response.ok) throw new Error(`openTarget ${targetId}: ${response.error}`);
}

/** The stage and the page that stands in for the side panel, both visible, with the floor's relays installed. */
async function openBench(extensionPath: string) {
  const session = await launchExtension(extensionPath);
  const base = `chrome-extension://${session.extensionId}`;
  // As in use, the stage and the page that stands in for the side panel are both visible: the stage in the
  // first window (the runtime adopts it instead of opening a tab), the control page in a window of its own.
  const stage = (await session.browser.pages())[0] ?? (await session.browser.newPage());
  await stage.goto(`${base}/stage.html`);
  const control = await session.browser.newPage({ type: 'window' });
  await control.goto(`${base}/options.html`);
  await openTarget(control, 'slow-counter');
  const frame = await session.targetFrame('slow-counter');
  await frame.waitForFunction(
    () => (window as unknown as { SplitbrainBridge: { isReady(): boolean } }).SplitbrainBridge.isReady(),
    { polling: 100, timeout: 20_000 },
  );
  const visible = await Promise.all([stage, control].map((page) => page.evaluate(() => document.visibilityState)));
  if (visible.some((state) => state !== 'visible'))
    throw new Error(`The stage and the control page must both be visible, they are ${visible.join(' and ')}.`);
  const worker = await session.worker();
  await installWorkerRelay(worker);
  await installStageRelay(stage, `${base}/targets/echo/index.html`);
  const sender = await installFloorSender(control);
  await allowNamedFunctions(control);
  return { session, stage, control, worker, sender };
}

/** The same code built with its event log in memory: floor and execute only, to show what the durable writes cost. */
async function measureMemoryLog(): Promise<{ floor: number[]; execute: number[] }> {
  progress('building the extension with its event log in memory');
  const { session, control, sender } = await openBench(await benchExtensionBuild({ memoryLog: true }));
  try {
    const sessionId = `bench-memory-${Date.now()}`;
    const samples = { floor: [] as number[], execute: [] as number[] };
    progress(`floor and execute with the log in memory, ${CALLS} calls each`);
    await timeFloor(sender, 'benchFloor', 0, WARMUP);
    await timeTool(control, 'execute', 'count', 100, 0, WARMUP, sessionId);
    for (let first = WARMUP; first < WARMUP + CALLS; first += BLOCK) {
      samples.floor.push(...(await timeFloor(sender, 'benchFloor', first, BLOCK)));
      samples.execute.push(...(await timeTool(control, 'execute', 'count', 100, first, BLOCK, sessionId)));
    }
    return samples;
  } finally {
    await session.close();
  }
}

export async function run(): Promise<Record<string, number>> {
  progress('building the extension (test configuration)');
  const { session, control, worker, sender } = await openBench(await benchExtensionBuild());
  let figures: Record<string, number>;
  try {
    const sessionId = `bench-${Date.now()}`;
    const measure = {
      floor: (first: number, count: number) => timeFloor(sender, 'benchFloor', first, count),
      durableFloor: (first: number, count: number) => timeFloor(sender, 'benchDurable', first, count),
      durablePortFloor: (first: number, count: number) => timeDurablePortFloor(control.mainFrame(), first, count),
      manual: (first: number, count: number) => timeTool(control, 'manual', 'count', 100, first, count, sessionId),
      execute: (first: number, count: number) => timeTool(control, 'execute', 'count', 100, first, count, sessionId),
      executeBySendMessage: (first: number, count: number) =>
        timeTool(control, 'executeBySendMessage', 'count', 100, first, count, sessionId),
    };
    const kinds = Object.keys(measure) as (keyof typeof measure)[];
    progress(`${kinds.join(', ')}: ${CALLS} calls each`);
    // The durable floor writes copies of the rows the product wrote for a call, so the product's warm-up goes first.
    for (const kind of ['execute', 'executeBySendMessage', 'manual', 'floor'] as const) await measure[kind](0, WARMUP);
    const floorRowsJsonBytes = await useRowsOf(worker, sessionId);
    for (const kind of ['durableFloor', 'durablePortFloor'] as const) await measure[kind](0, WARMUP);
    const samples = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<
      keyof typeof measure,
      number[]
    >;
    for (let block = 0; block < CALLS / BLOCK; block++) {
      for (let turn = 0; turn < kinds.length; turn++) {
        const kind = kinds[(block + turn) % kinds.length];
        samples[kind].push(...(await measure[kind](WARMUP + block * BLOCK, BLOCK)));
      }
    }

    progress("the floor's parts and the worker's storage");
    const ping = await timeFloor(sender, 'benchPing', 0, CALLS);
    const portPing = await timePortPing(control.mainFrame(), CALLS);
    const stageLeg = await timeStageLeg(worker, CALLS);
    const storage = await timeWorkerStorage(worker, 200);

    await openTarget(control, 'particles');
    const particles = await session.targetFrame('particles');
    await particles.waitForFunction(
      () => (window as unknown as { SplitbrainBridge: { isReady(): boolean } }).SplitbrainBridge.isReady(),
      { polling: 100, timeout: 20_000 },
    );
    progress('execute against the particle field');
    await timeTool(control, 'execute', 'speed', 50, 0, WARMUP, `${sessionId}-particles`);
    const executeParticles: number[] = [];
    for (let first = WARMUP; first < WARMUP + CALLS; first += BLOCK)
      executeParticles.push(
        ...(await timeTool(control, 'execute', 'speed', 50, first, BLOCK, `${sessionId}-particles`)),
      );

    const p50 = (values: number[]) => percentile(values, 0.5);
    const p99 = (values: number[]) => percentile(values, 0.99);
    figures = {
      calls: CALLS,
      // Other processes share the cores: the figures are only comparable within one run.
      hostLoadAverage1m: round(loadavg()[0], 2),
      floorRowsJsonBytes,
      ...summary('floor', samples.floor),
      ...summary('durableFloor', samples.durableFloor),
      ...summary('durablePortFloor', samples.durablePortFloor),
      ...summary('manual', samples.manual),
      ...summary('execute', samples.execute),
      ...summary('executeBySendMessage', samples.executeBySendMessage),
      // The goal of the durable floor: execute within 1.25x of the same hops plus the same bare commits.
      executeOverDurableFloorP50: round(p50(samples.execute) / p50(samples.durableFloor), 2),
      executeOverDurableFloorP99: round(p99(samples.execute) / p99(samples.durableFloor), 2),
      executeOverDurablePortFloorP50: round(p50(samples.execute) / p50(samples.durablePortFloor), 2),
      executeOverDurablePortFloorP99: round(p99(samples.execute) / p99(samples.durablePortFloor), 2),
      executeBySendMessageOverDurableFloorP50: round(p50(samples.executeBySendMessage) / p50(samples.durableFloor), 2),
      executeBySendMessageOverDurableFloorP99: round(p99(samples.executeBySendMessage) / p99(samples.durableFloor), 2),
      manualOverFloorP50: round(p50(samples.manual) / p50(samples.floor), 2),
      manualOverFloorP99: round(p99(samples.manual) / p99(samples.floor), 2),
      executeOverFloorP50: round(p50(samples.execute) / p50(samples.floor), 2),
      executeOverFloorP99: round(p99(samples.execute) / p99(samples.floor), 2),
      durabilityP50Ms: round(p50(samples.execute) - p50(samples.manual)),
      ...summary('ping', ping),
      ...summary('portPing', portPing),
      ...summary('stageLeg', stageLeg),
      ...summary('workerStorageGet', storage.storageGet),
      ...summary('workerStorageSet', storage.storageSet),
      ...summary('workerIdbWriteTransaction', storage.idbWrite),
      ...summary('workerIdbSequentialWriteTransaction', storage.idbSequentialWrite),
      ...summary('workerIdbIndexRead', storage.idbRead),
      ...summary('executeParticles', executeParticles),
    };
  } finally {
    await session.close();
  }
  const memoryLog = await measureMemoryLog();
  return {
    ...figures,
    ...summary('memoryLogFloor', memoryLog.floor),
    ...summary('memoryLogExecute', memoryLog.execute),
    memoryLogExecuteOverFloorP50: round(percentile(memoryLog.execute, 0.5) / percentile(memoryLog.floor, 0.5), 2),
    memoryLogExecuteOverFloorP99: round(percentile(memoryLog.execute, 0.99) / percentile(memoryLog.floor, 0.99), 2),
  };
}
