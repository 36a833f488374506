/**
 * `npm run bench -- "cold open"`: opens stored conversations of 1k, 10k and 100k events (written in the event
 * store's own row format, turns with tool cards, code and tables) in the side panel, with the worker stopped
 * before each open (cold) and running (warm), and prints per case the median and extremes of: time until the
 * last line is on screen, the panel's heap after the open, the worker's heap, and the longest main-thread task.
 * Before those, the first open of each conversation with no snapshot stored (history written before snapshots
 * existed, or a snapshot of another format: the worker builds it from the log), worker stopped, FIRST_OPENS times:
 * the time until the last line is on screen and the worker's heap at its highest while it builds (`first.*`).
 */
import type { Page } from 'puppeteer-core';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { configureEndpoint, launchExtension, type ExtensionSession } from '../e2e/extension-harness';
import { dropStoredSnapshot, openNextInPanel, writeStoredSession } from '../e2e/stored-session';
import { lastLineOf, lineInView, sessionOfSize } from '../support/long-session-log';
import { benchExtensionBuild } from './extension-build';

const SIZES = [1_000, 10_000, 100_000];
const OPENS = 5;
const FIRST_OPENS = 3;
const HEAP_POLL_MS = 50;
const WRITE_CHUNK = 10_000;

function progress(message: string): void {
  process.stderr.write(`[cold open] ${message}\n`);
}

function watchLongTasks() {
  const record = { longest: 0 };
  (globalThis as unknown as { benchTasks: typeof record }).benchTasks = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.longest = Math.max(record.longest, entry.duration);
  }).observe({ type: 'longtask', buffered: true });
}

interface OpenFigures {
  ms: number;
  panelHeapMb: number;
  workerHeapMb: number;
  longestTaskMs: number;
}

async function workerHeapMb(session: ExtensionSession): Promise<number> {
  const worker = await session.worker();
  const usage = (await worker.client.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usage.usedSize / 1e6;
}

async function openOnce(session: ExtensionSession, turns: number, cold: boolean): Promise<OpenFigures> {
  if (cold) await session.stopServiceWorker();
  const panel: Page = await session.browser.newPage();
  await panel.setViewport({ width: 400, height: 720 });
  await panel.evaluateOnNewDocument(watchLongTasks);
  const started = performance.now();
  await panel.goto(`chrome-extension://${session.extensionId}/sidepanel.html`);
  await panel.waitForFunction(lineInView, { timeout: 120_000, polling: 'raf' }, lastLineOf(turns));
  const ms = performance.now() - started;
  const metrics = await panel.metrics();
  const longestTaskMs = await panel.evaluate(
    () => (globalThis as unknown as { benchTasks: { longest: number } }).benchTasks.longest,
  );
  const figures = {
    ms,
    panelHeapMb: (metrics.JSHeapUsedSize ?? 0) / 1e6,
    workerHeapMb: await workerHeapMb(session),
    longestTaskMs,
  };
  await panel.close();
  return figures;
}

/** The worker's highest used heap, sampled until `done` settles (a sample waits for the worker's current task). */
async function workerHeapPeakMb(session: ExtensionSession, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const worker = await session.worker();
  let peak = 0;
  while (!finished) {
    const usage = (await worker.client.send('Runtime.getHeapUsage').catch(() => undefined)) as
      { usedSize: number } | undefined;
    peak = Math.max(peak, (usage?.usedSize ?? 0) / 1e6);
    await new Promise((resolve) => setTimeout(resolve, HEAP_POLL_MS));
  }
  return peak;
}

/** An open with no snapshot stored: the worker, just started, builds the conversation's state from its log. */
async function firstOpen(session: ExtensionSession, sessionId: string, turns: number): Promise<OpenFigures> {
  // An extension page that does not open the conversation (the panel would build its snapshot first).
  const setup = await session.browser.newPage();
  await setup.goto(`chrome-extension://${session.extensionId}/options.html`);
  await dropStoredSnapshot(setup, sessionId);
  await setup.close();
  await session.stopServiceWorker();
  const panel: Page = await session.browser.newPage();
  await panel.setViewport({ width: 400, height: 720 });
  await panel.evaluateOnNewDocument(watchLongTasks);
  const started = performance.now();
  const shown = panel
    .goto(`chrome-extension://${session.extensionId}/sidepanel.html`)
    .then(() => panel.waitForFunction(lineInView, { timeout: 120_000, polling: 'raf' }, lastLineOf(turns)))
    .then(() => performance.now() - started);
  const [ms, workerHeapMb] = await Promise.all([shown, workerHeapPeakMb(session, shown)]);
  const metrics = await panel.metrics();
  const longestTaskMs = await panel.evaluate(
    () => (globalThis as unknown as { benchTasks: { longest: number } }).benchTasks.longest,
  );
  await panel.close();
  return { ms, panelHeapMb: (metrics.JSHeapUsedSize ?? 0) / 1e6, workerHeapMb, longestTaskMs };
}

function record(figures: Record<string, number>, prefix: string, opens: OpenFigures[]): void {
  for (const key of ['ms', 'panelHeapMb', 'workerHeapMb', 'longestTaskMs'] as const) {
    const { median, min, max } = summary(opens.map((figure) => figure[key]));
    figures[`${prefix}.${key}.median`] = median;
    figures[`${prefix}.${key}.min`] = min;
    figures[`${prefix}.${key}.max`] = max;
  }
}

function summary(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((left, right) => left - right);
  const round = (value: number) => Math.round(value * 10) / 10;
  return { median: round(sorted[Math.floor(sorted.length / 2)]), min: round(sorted[0]), max: round(sorted.at(-1)!) };
}

async function storeSession(session: ExtensionSession, sessionId: string, size: number): Promise<number> {
  const events = sessionOfSize(sessionId, size);
  const page = await session.openPanel();
  for (let start = 0; start < events.length; start += WRITE_CHUNK)
    await writeStoredSession(page, sessionId, events.slice(start, start + WRITE_CHUNK), `${size} events`);
  await page.close();
  return events.length;
}

export async function run(): Promise<Record<string, number>> {
  progress('building the extension (test configuration)');
  const build = await benchExtensionBuild();
  const server: ScriptedModelServer = await startScriptedModelServer();
  const session = await launchExtension(build);
  const figures: Record<string, number> = {};
  try {
    await configureEndpoint(session, server.url);
    for (const size of SIZES) {
      const sessionId = `cold-open-${size}`;
      const stored = await storeSession(session, sessionId, size);
      const turnCount = sessionOfSize(sessionId, size).filter((event) => event.type === 'turn/started').length;
      const page = await session.openPanel();
      await openNextInPanel(page, sessionId);
      await page.close();
      progress(`${stored} events, first open (no snapshot): ${FIRST_OPENS} opens`);
      const first: OpenFigures[] = [];
      for (let open = 0; open < FIRST_OPENS; open++) first.push(await firstOpen(session, sessionId, turnCount));
      record(figures, `${size}.first`, first);
      progress(JSON.stringify(first.map((figure) => [Math.round(figure.ms), Math.round(figure.workerHeapMb)])));
      for (const mode of ['cold', 'warm'] as const) {
        progress(`${stored} events, ${mode}: ${OPENS} opens`);
        const opens: OpenFigures[] = [];
        for (let open = 0; open < OPENS; open++) opens.push(await openOnce(session, turnCount, mode === 'cold'));
        record(figures, `${size}.${mode}`, opens);
        progress(JSON.stringify(opens.map((figure) => Math.round(figure.ms))));
      }
    }
  } finally {
    await session.close();
    await server.close();
  }
  return figures;
}
