/**
 * Not a benchmark but the profiler behind the "cold open" figures: traces opens of the side panel (CDP Tracing, all
 * of Chromium's timeline categories) and prints every main-thread task over 50 ms of the panel's renderer with the
 * trace events inside it, and first two opens of an empty extension page (`empty.html`, copy one into the build
 * folder) to show what Chromium's own page start-up costs.
 * `SPLITBRAIN_BENCH_EXTENSION=<build>/chrome-mv3 flock /tmp/sb-browser.lock npx tsx tests/bench/profile-open.ts`
 * PROFILE_SIZES=1000,100000 (default), PROFILE_CPU=1 adds the V8 sampling profiler (self and total time per
 * function, which makes tasks longer), PROFILE_SAVE=1 writes the traces to /tmp/lt, PROFILE_READ=<trace> analyses
 * a saved trace.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession } from 'puppeteer-core';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { configureEndpoint, launchExtension, type ExtensionSession } from '../e2e/extension-harness';
import { openNextInPanel, writeStoredSession } from '../e2e/stored-session';
import { lastLineOf, lineInView, sessionOfSize } from '../support/long-session-log';
import { benchExtensionBuild } from './extension-build';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      url?: string;
      functionName?: string;
      type?: string;
      startTime?: number;
      timeDeltas?: number[];
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
    };
  };
}

async function trace(session: ExtensionSession, open: () => Promise<void>): Promise<TraceEvent[]> {
  const client: CDPSession = await session.browser.target().createCDPSession();
  const events: TraceEvent[] = [];
  client.on('Tracing.dataCollected', (message: { value: TraceEvent[] }) => events.push(...message.value));
  const complete = new Promise<void>((done) => client.once('Tracing.tracingComplete', () => done()));
  await client.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'v8',
        'blink',
        'toplevel',
        ...(process.env.PROFILE_CPU ? ['disabled-by-default-v8.cpu_profiler'] : []),
        'loading',
      ],
    },
  } as never);
  await open();
  await client.send('Tracing.end');
  await complete;
  await client.detach();
  return events;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  parent?: number;
}

/** Self time per function (and per script url) from the sampling profile, between start and end (trace µs). */
function samplesIn(events: TraceEvent[], pid: number, tid: number) {
  const nodes = new Map<number, ProfileNode>();
  const samples: { ts: number; node: number }[] = [];
  for (const profile of events.filter((event) => event.name === 'Profile' && event.pid === pid && event.tid === tid)) {
    let time = profile.args?.data?.startTime ?? 0;
    const chunks = events.filter(
      (event) => event.name === 'ProfileChunk' && event.pid === pid && event.id === profile.id,
    );
    for (const chunk of chunks) {
      const data = chunk.args?.data?.cpuProfile ?? {};
      for (const node of data.nodes ?? []) nodes.set(node.id, node);
      const deltas: number[] = chunk.args?.data?.timeDeltas ?? [];
      (data.samples ?? []).forEach((node, index) => {
        time += deltas[index] ?? 0;
        samples.push({ ts: time, node });
      });
    }
  }
  return { nodes, samples };
}

function stackOf(nodes: Map<number, ProfileNode>, id: number): ProfileNode[] {
  const stack: ProfileNode[] = [];
  for (let node = nodes.get(id); node; node = node.parent === undefined ? undefined : nodes.get(node.parent))
    stack.push(node);
  return stack;
}

const regionLines = new Map<string, { line: number; name: string }[]>();
/** The `//#region` of an unminified chunk that holds `line` (0-based), read from the build folder. */
function regionOf(url: string, line: number): string {
  const path = new URL(url).pathname;
  if (!regionLines.has(path)) {
    const text = readFileSync(join(process.env.SPLITBRAIN_BENCH_EXTENSION ?? '', path), 'utf8').split('\n');
    regionLines.set(
      path,
      text.flatMap((content, index) =>
        /^\/\/ \S+\.(m?js|tsx?|cjs)$/.test(content) ? [{ line: index, name: content.slice(3) }] : [],
      ),
    );
  }
  const regions = regionLines.get(path)!;
  let found = path;
  for (const region of regions) if (region.line <= line) found = region.name;
  return found.replace(/^.*node_modules\//, '');
}

function shortUrl(url: string | undefined): string {
  return (url ?? '').replace(/^chrome-extension:\/\/[a-z]+/, '');
}

function analyse(events: TraceEvent[], label: string, page = 'sidepanel'): void {
  const panelThread = events.find(
    (event) =>
      event.name === 'thread_name' &&
      event.args?.name === 'CrRendererMain' &&
      events.some(
        (other) =>
          other.pid === event.pid &&
          ['EvaluateScript', 'ParseHTML', 'CommitLoad'].includes(other.name) &&
          JSON.stringify(other.args ?? {}).includes(page),
      ),
  );
  if (!panelThread) {
    console.log(label, 'no panel thread found');
    return;
  }
  const { pid, tid } = panelThread;
  const thread = events.filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X');
  // Parent-child links of profile nodes arrive as `parent` in ProfileChunk nodes.
  const { nodes, samples } = samplesIn(events, pid, tid);
  const tasks = thread.filter((event) => event.name === 'RunTask' && (event.dur ?? 0) > 50_000);
  const start = Math.min(...thread.map((event) => event.ts));
  const longest = Math.max(0, ...thread.filter((e) => e.name === 'RunTask').map((e) => e.dur ?? 0)) / 1000;
  console.log(`\n=== ${label}: longest RunTask ${longest.toFixed(0)} ms; tasks > 50 ms: ${tasks.length}`);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    console.log(`-- task at +${((task.ts - start) / 1000).toFixed(0)} ms, ${((task.dur ?? 0) / 1000).toFixed(1)} ms`);
    const inside = thread
      .filter((event) => event !== task && event.ts >= task.ts && event.ts + (event.dur ?? 0) <= end)
      .filter(
        (event) =>
          (event.dur ?? 0) > 3_000 &&
          !/GC_|GCScaven|ThreadController|mojo message|AsyncTask|V8.StackGuard|HandleInterrupts|InvokeApi/.test(
            event.name,
          ),
      )
      .sort((left, right) => left.ts - right.ts);
    for (const event of inside.slice(0, 40)) {
      const data = event.args?.data ?? {};
      const detail = data.url
        ? shortUrl(data.url)
        : data.functionName
          ? `${data.functionName} ${shortUrl(data.url ?? '')}`
          : (data.type ?? '');
      console.log(
        `   +${((event.ts - task.ts) / 1000).toFixed(0).padStart(4)} ${((event.dur ?? 0) / 1000).toFixed(1).padStart(6)} ms ${event.name} ${detail}`,
      );
    }
    const inTask = samples.filter((sample) => sample.ts >= task.ts && sample.ts <= end);
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    for (const sample of inTask) {
      const stack = stackOf(nodes, sample.node);
      const top = stack[0];
      if (!top) continue;
      const key = `${top.callFrame.functionName || '(anon)'} ${shortUrl(top.callFrame.url)}:${top.callFrame.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + 1);
      const seen = new Set<string>();
      for (const frame of stack) {
        const name = `${frame.callFrame.functionName || '(anon)'} ${shortUrl(frame.callFrame.url)}:${frame.callFrame.lineNumber}`;
        if (seen.has(name)) continue;
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + 1);
      }
    }
    const regions = new Map<string, number>();
    for (const sample of inTask) {
      const frame = stackOf(nodes, sample.node).find(
        (candidate) => candidate.callFrame.functionName === '' && candidate.callFrame.url?.includes('/chunks/'),
      );
      const key = frame ? regionOf(frame.callFrame.url, frame.callFrame.lineNumber) : '(no module body)';
      regions.set(key, (regions.get(key) ?? 0) + 1);
    }
    const ms = inTask.length ? (task.dur ?? 0) / 1000 / inTask.length : 0;
    console.log(`   samples ${inTask.length}; top self:`);
    for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
      console.log(`     ${(count * ms).toFixed(1).padStart(6)} ms ${name}`);
    console.log(`   by module body (source region):`);
    for (const [name, count] of [...regions].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`     ${(count * ms).toFixed(1).padStart(6)} ms ${name}`);
    console.log(`   top total:`);
    for (const [name, count] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`     ${(count * ms).toFixed(1).padStart(6)} ms ${name}`);
  }
}

async function main(): Promise<void> {
  const build = await benchExtensionBuild();
  const server = await startScriptedModelServer();
  const session = await launchExtension(build);
  const sizes = (process.env.PROFILE_SIZES ?? '1000,100000').split(',').map(Number);
  try {
    await configureEndpoint(session, server.url);
    // An empty extension page: what Chromium itself costs to start an extension page.
    for (let index = 0; index < 2; index++) {
      const empty = await trace(session, async () => {
        const page = await session.browser.newPage();
        await page.goto(`chrome-extension://${session.extensionId}/empty.html`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await page.close();
      });
      analyse(empty, 'empty extension page', 'empty.html');
    }
    for (const size of sizes) {
      const sessionId = `profile-${size}`;
      const events = sessionOfSize(sessionId, size);
      const page = await session.openPanel();
      for (let at = 0; at < events.length; at += 10_000)
        await writeStoredSession(page, sessionId, events.slice(at, at + 10_000), `${size} events`);
      await openNextInPanel(page, sessionId);
      await page.close();
      const turns = events.filter((event) => event.type === 'turn/started').length;
      for (const mode of ['cold', 'warm', 'warm'] as const) {
        if (mode === 'cold') await session.stopServiceWorker();
        const traced = await trace(session, async () => {
          const panel = await session.browser.newPage();
          await panel.setViewport({ width: 400, height: 720 });
          const started = performance.now();
          await panel.goto(`chrome-extension://${session.extensionId}/sidepanel.html`);
          await panel.waitForFunction(lineInView, { timeout: 120_000, polling: 'raf' }, lastLineOf(turns));
          console.log(
            `${size} events ${mode}: last line on screen after ${Math.round(performance.now() - started)} ms`,
          );
          await new Promise((resolve) => setTimeout(resolve, 500));
          await panel.close();
        });
        if (process.env.PROFILE_SAVE) writeFileSync(`/tmp/lt/trace-${size}-${mode}.json`, JSON.stringify(traced));
        analyse(traced, `${size} events ${mode}`);
      }
    }
  } finally {
    await session.close();
    await server.close();
  }
}

if (process.env.PROFILE_READ) {
  const { readFileSync } = await import('node:fs');
  analyse(JSON.parse(readFileSync(process.env.PROFILE_READ, 'utf8')) as TraceEvent[], process.env.PROFILE_READ);
} else await main();
