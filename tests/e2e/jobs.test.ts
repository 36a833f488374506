import { createServer, type Server } from 'node:http';
import { EXTENSION_ORIGIN_PROBES } from '../support/extension-origin-probes';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  readStoredLog,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

function lastToolResult(server: ScriptedModelServer, requestIndex: number): Record<string, unknown> {
  const messages = (server.requests[requestIndex].body as ChatRequestBody).messages.filter(
    (message) => message.role === 'tool',
  );
  return JSON.parse(String(messages.at(-1)?.content)) as Record<string, unknown>;
}

async function newChat(panel: Page): Promise<void> {
  await panel.click('button::-p-text(New chat)');
}

// The conversation is a virtualized list: only the turns near the end are in the DOM, so cards and turns are
// found from the end (the newest job is the last card), never by their index in the conversation.
async function waitForLastJobState(panel: Page, states: string[], timeoutMs = 20_000): Promise<string> {
  await panel.waitForFunction(
    (wanted) => {
      const card = [...document.querySelectorAll('section.job-card')].at(-1);
      return card && wanted.includes(card.getAttribute('data-state') ?? '');
    },
    { timeout: timeoutMs, polling: 20 },
    states,
  );
  return panel.$$eval('section.job-card', (cards) => cards.at(-1)?.getAttribute('data-state') ?? '');
}

/** Waits until the newest turn, the one that sent `text`, has ended, and returns its status. */
async function waitForLastTurnEnd(panel: Page, text: string, timeoutMs = 30_000): Promise<string> {
  const handle = await panel.waitForFunction(
    (sent) => {
      const turn = [...document.querySelectorAll('article.turn')].at(-1);
      const status = turn?.getAttribute('data-status');
      return turn?.textContent?.includes(sent) && status !== 'running' ? status : false;
    },
    { timeout: timeoutMs, polling: 50 },
    text,
  );
  return String(await handle.jsonValue());
}

/** Clicks Stop on the newest card and measures, inside the panel, the time until it shows `killed`. */
async function stopAndTime(panel: Page): Promise<number> {
  return panel.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const card = [...document.querySelectorAll('section.job-card')].at(-1)!;
        const jobId = card.getAttribute('data-job-id');
        const started = performance.now();
        const check = () => {
          const current = document.querySelector(`section.job-card[data-job-id="${jobId}"]`);
          if (current?.getAttribute('data-state') === 'killed') {
            observer.disconnect();
            resolve(performance.now() - started);
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, attributes: true, childList: true });
        (card.querySelector('button.job-stop') as HTMLButtonElement).click();
      }),
  );
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

describe('jobs: runScript in a sandboxed worker, in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let collector: Server;
  let collected = 0;
  let collectorUrl = '';

  beforeAll(async () => {
    collector = createServer((request, response) => {
      collected += 1;
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.end('reached');
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    panel = await session.openPanel();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await new Promise((resolve) => collector?.close(resolve));
  });

  beforeEach(async () => {
    server.clearRequests();
    // Opening a target brings the stage tab to the front; typing into a background page hangs in puppeteer.
    await panel.bringToFront();
  });

  it('a script computes a data series, the model feeds it into the chart with setParameters, and the chart shows it', async () => {
    const code = [
      'const series = Array.from({ length: input.days }, (_, day) => 50 + 30 * Math.sin(day / 10));',
      "console.log('computed', series.length, 'days');",
      '({ y_min: Math.floor(Math.min(...series)), y_max: Math.ceil(Math.max(...series)), x_range: [0, series.length] })',
    ].join('\n');
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'runScript', arguments: { code, input: { days: 90 } } }] },
            { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'chart' } }] },
            {
              toolCalls: [
                {
                  name: 'setParameters',
                  arguments: {
                    changes: [
                      { param: 'y_min', value: 20 },
                      { param: 'y_max', value: 80 },
                      { param: 'x_range', value: [0, 90] },
                    ],
                  },
                },
              ],
            },
            { text: 'The chart now spans the computed series.' },
          ],
        },
      ],
    });
    await sendMessage(panel, 'Compute the series and show it on the chart.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const result = lastToolResult(server, 1);
    expect(result).toMatchObject({ ok: true, state: 'completed', result: { y_min: 20, y_max: 80, x_range: [0, 90] } });
    expect(result.output).toBe('computed 90 days\n');
    const frame = await session.targetFrame('chart');
    const state = await frame.evaluate(() =>
      (
        window as unknown as { SplitbrainBridge: { currentState(): Record<string, unknown> } }
      ).SplitbrainBridge.currentState(),
    );
    expect(state).toMatchObject({ y_min: 20, y_max: 80, x_range: [0, 90] });
    expect(await panel.$eval('section.job-card', (card) => card.getAttribute('data-state'))).toBe('completed');
  });

  it("a script's value is its last expression statement, as a console gives it, and top-level await works", async () => {
    server.setScript({
      turns: [
        {
          steps: [
            {
              toolCalls: [
                { name: 'runScript', arguments: { code: 'let p = 1; for (let i = 1; i <= 10; i++) p *= i; p' } },
                {
                  name: 'runScript',
                  arguments: { code: 'const half = await Promise.resolve(21);\nhalf * 2\nfunction unused() {}' },
                },
              ],
            },
            { text: 'Computed.' },
          ],
        },
      ],
    });
    await newChat(panel);
    await sendMessage(panel, 'Compute 10 factorial.');
    expect(await waitForLastTurnEnd(panel, 'Compute 10 factorial.')).toBe('completed');
    const results = (server.requests.at(-1)!.body as ChatRequestBody).messages
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(String(message.content)) as Record<string, unknown>);
    expect(results).toMatchObject([
      { ok: true, state: 'completed', result: 3628800 },
      { ok: true, state: 'completed', result: 42 },
    ]);
  });

  it('Stop kills a tight loop (20 runs, figure printed), a timeout fails with reason timeout, and a second cancel only reports the state', async () => {
    const runs = 20;
    server.setScript({
      turns: [
        ...Array.from({ length: runs }, () => ({
          steps: [{ toolCalls: [{ name: 'runScript', arguments: { code: 'while (true) {}' } }] }, { text: 'Stopped.' }],
        })),
        {
          steps: [
            { toolCalls: [{ name: 'runScript', arguments: { code: 'while (true) {}', timeoutSeconds: 1 } }] },
            { text: 'It timed out.' },
          ],
        },
      ],
    });
    await newChat(panel);
    const figures: number[] = [];
    for (let run = 0; run < runs; run++) {
      await sendMessage(panel, `Loop ${run}`);
      expect(await waitForLastJobState(panel, ['running'])).toBe('running');
      figures.push(await stopAndTime(panel));
      expect(await waitForLastTurnEnd(panel, `Loop ${run}`)).toBe('completed');
    }
    console.log(
      `[e2e] Stop → killed on a tight loop over ${runs} runs: p50 ${percentile(figures, 0.5).toFixed(1)} ms, max ${Math.max(...figures).toFixed(1)} ms`,
    );
    const killed = lastToolResult(server, server.requests.length - 1);
    expect(killed).toMatchObject({ ok: false, state: 'killed', error: 'Stopped by the user.' });

    await sendMessage(panel, 'Loop with a limit');
    expect(await waitForLastJobState(panel, ['failed'], 15_000)).toBe('failed');
    expect(await waitForLastTurnEnd(panel, 'Loop with a limit')).toBe('completed');
    expect(lastToolResult(server, server.requests.length - 1)).toMatchObject({
      ok: false,
      state: 'failed',
      reason: 'timeout',
    });

    const sessionId = await currentSessionId(panel);
    const before = await readStoredLog(panel, sessionId);
    const jobId = await panel.$$eval('section.job-card', (cards) => cards[0].getAttribute('data-job-id') ?? '');
    const again = await panel.evaluate(
      (id, job) =>
        (
          globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } }
        ).chrome.runtime.sendMessage({ type: 'job/cancel', sessionId: id, jobId: job, commandId: 'second-cancel' }),
      sessionId,
      jobId,
    );
    expect(again).toMatchObject({ ok: true, result: { state: 'stale', jobState: 'killed', jobId } });
    const after = await readStoredLog(panel, sessionId);
    expect(after.slice(before.length).map((row) => row.type)).toEqual(['job-command/state']);
    const finals = after.filter((row) =>
      ['job/completed', 'job/failed', 'job/killed', 'job/orphaned'].includes(row.type),
    );
    expect(finals).toHaveLength(runs + 1);
  });

  it('what a job printed just before a tight loop reaches the card and the model, on Stop and on the time limit', async () => {
    const printed = 'spinning\nline 0\nline 1\nline 2\n';
    const code = 'console.log("spinning");\nfor (let i = 0; i < 3; i++) console.log("line", i);\nwhile (true) {}';
    server.setScript({
      turns: [
        { steps: [{ toolCalls: [{ name: 'runScript', arguments: { code } }] }, { text: 'Stopped.' }] },
        {
          steps: [
            { toolCalls: [{ name: 'runScript', arguments: { code, timeoutSeconds: 1 } }] },
            { text: 'It timed out.' },
          ],
        },
      ],
    });
    await newChat(panel);
    await sendMessage(panel, 'Spin until stopped.');
    await panel.waitForFunction(
      (text) => {
        const card = [...document.querySelectorAll('section.job-card')].at(-1);
        return (
          card?.getAttribute('data-state') === 'running' && card.querySelector('.job-output')?.textContent === text
        );
      },
      { timeout: 20_000, polling: 20 },
      printed.replaceAll('\n', ''),
    );
    // While it runs the card says so and offers Stop (issue 25 item 4c; not reproduced, kept as a check).
    expect(
      await panel.$$eval('section.job-card', (cards) => ({
        label: cards.at(-1)?.querySelector('.job-state')?.textContent,
        stop: (cards.at(-1)?.querySelector('button.job-stop') as HTMLButtonElement | null)?.disabled,
      })),
    ).toEqual({ label: 'Running', stop: false });
    await panel.$$eval('section.job-card', (cards) =>
      (cards.at(-1)?.querySelector('button.job-stop') as HTMLElement).click(),
    );
    expect(await waitForLastTurnEnd(panel, 'Spin until stopped.')).toBe('completed');
    const cardOf = () =>
      panel.$$eval('section.job-card', (cards) => ({
        state: cards.at(-1)?.getAttribute('data-state'),
        lines: [...(cards.at(-1)?.querySelectorAll('.job-line') ?? [])].map((line) => line.textContent),
        range: cards.at(-1)?.querySelector('.job-range')?.textContent,
      }));
    const bytes = printed.length;
    expect(await cardOf()).toEqual({
      state: 'killed',
      lines: ['spinning', 'line 0', 'line 1', 'line 2'],
      range: `All ${bytes} B kept.`,
    });
    expect(lastToolResult(server, server.requests.length - 1)).toMatchObject({
      state: 'killed',
      output: printed,
      outputBytes: bytes,
    });

    await sendMessage(panel, 'Spin until the limit.');
    expect(await waitForLastTurnEnd(panel, 'Spin until the limit.')).toBe('completed');
    expect(await cardOf()).toEqual({
      state: 'failed',
      lines: ['spinning', 'line 0', 'line 1', 'line 2'],
      range: `All ${bytes} B kept.`,
    });
    expect(lastToolResult(server, server.requests.length - 1)).toMatchObject({
      state: 'failed',
      reason: 'timeout',
      output: printed,
      outputBytes: bytes,
    });
  });

  it('escape probes from inside a script: none succeeds and the collector sees no request', async () => {
    const code = `
const url = input.url;
const probes = {
  fetch: () => fetch(url + '/fetch').then(() => true),
  xhr: () => new Promise((resolve) => { const request = new XMLHttpRequest(); request.onload = () => resolve(true); request.onerror = () => resolve(false); request.open('GET', url + '/xhr'); request.send(); }),
  webSocket: () => new Promise((resolve) => { const socket = new WebSocket(url.replace('http', 'ws') + '/ws'); socket.onopen = () => resolve(true); socket.onerror = () => resolve(false); }),
  eventSource: () => new Promise((resolve) => { const source = new EventSource(url + '/sse'); source.onopen = () => resolve(true); source.onerror = () => { source.close(); resolve(false); }; }),
  sendBeacon: () => typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url + '/beacon', 'x'),
  importScripts: () => { importScripts(url + '/import.js'); return true; },
  dynamicImport: () => import(url + '/module.js').then(() => true),
  nestedWorkerFetch: () => new Promise((resolve) => { const worker = new Worker(URL.createObjectURL(new Blob(["fetch('" + url + "/nested').then(() => postMessage(true), () => postMessage(false))"]))); worker.onmessage = (event) => resolve(event.data); worker.onerror = () => resolve(false); }),
  urlWorker: () => new Promise((resolve) => { const worker = new Worker(url + '/worker.js'); worker.onmessage = () => resolve(true); worker.onerror = () => resolve(false); }),
  fontFace: () => typeof FontFace === 'function' && new FontFace('probe', 'url(' + url + '/font)').load().then(() => true),
  webTransport: () => typeof WebTransport === 'function' && new WebTransport(url.replace('http', 'https') + '/wt').ready.then(() => true),
  extensionApi: () => typeof chrome !== 'undefined' && !!chrome.runtime?.id || typeof browser !== 'undefined',
  parentFrame: () => typeof parent !== 'undefined' || typeof top !== 'undefined' || typeof opener !== 'undefined',
  dom: () => typeof document !== 'undefined' || typeof window !== 'undefined',
  openWindow: () => typeof open === 'function' && !!open(url + '/window'),
  spawnFrame: () => typeof document !== 'undefined' && !!document.createElement('iframe'),
  indexedDB: () => new Promise((resolve) => { const request = indexedDB.open('probe'); request.onsuccess = () => resolve(true); request.onerror = () => resolve(false); }),
  cacheStorage: () => caches.open('probe').then(() => true),
  localStorage: () => typeof localStorage !== 'undefined' && !!localStorage,
  broadcastChannel: () => new Promise((resolve) => { const channel = new BroadcastChannel('splitbrain'); channel.postMessage('probe'); resolve(false); }),
  origin: () => self.origin !== 'null',
${EXTENSION_ORIGIN_PROBES}};
const outcome = {};
for (const [name, probe] of Object.entries(probes)) {
  outcome[name] = await Promise.race([
    Promise.resolve().then(probe).then((value) => value === true, () => false),
    new Promise((resolve) => setTimeout(() => resolve(false), 1500)),
  ]);
}
return outcome;`;
    server.setScript({
      turns: [
        {
          steps: [
            {
              toolCalls: [
                {
                  name: 'runScript',
                  arguments: {
                    code,
                    input: { url: collectorUrl, extension: `chrome-extension://${session.extensionId}` },
                  },
                },
              ],
            },
            { text: 'Probed.' },
          ],
        },
      ],
    });
    await newChat(panel);
    await sendMessage(panel, 'Probe the sandbox.');
    expect(await waitForTurnEnd(panel, 0, 60_000)).toBe('completed');
    const result = lastToolResult(server, 1);
    expect(result).toMatchObject({ ok: true, state: 'completed' });
    const outcome = result.result as Record<string, boolean>;
    expect(Object.keys(outcome).length).toBeGreaterThanOrEqual(31);
    const escaped = Object.entries(outcome).filter(([, succeeded]) => succeeded);
    console.log(
      `[e2e] ${Object.keys(outcome).length} escape probes, ${escaped.length} succeeded, collector saw ${collected} requests`,
    );
    expect(escaped).toEqual([]);
    expect(collected).toBe(0);
  });

  it('a script printing 100 MB: the panel heap stays bounded, the card shows the kept range and the exact dropped bytes, the turn goes on', async () => {
    const lines = 102_400;
    const code = `const line = 'x'.repeat(1023);\nfor (let index = 0; index < ${lines}; index++) console.log(line);\nreturn 'printed';`;
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'runScript', arguments: { code, timeoutSeconds: 120 } }] },
            { text: 'Done printing.' },
          ],
        },
      ],
    });
    await newChat(panel);
    const heap = async () => {
      const cdp = await panel.createCDPSession();
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      await cdp.detach();
      return usedSize;
    };
    const heapBefore = await heap();
    const started = Date.now();
    await sendMessage(panel, 'Print a lot.');
    expect(await waitForTurnEnd(panel, 0, 120_000)).toBe('completed');
    const heapAfter = await heap();
    const total = lines * 1024;
    console.log(
      `[e2e] 100 MB of output in ${Date.now() - started} ms; panel heap ${(heapBefore / 1e6).toFixed(1)} MB before, ${(heapAfter / 1e6).toFixed(1)} MB after`,
    );
    expect(heapAfter - heapBefore).toBeLessThan(30e6);
    const card = await panel.$eval('section.job-card', (element) => ({
      state: element.getAttribute('data-state'),
      dropped: element.querySelector('.job-range')?.getAttribute('data-dropped-bytes'),
      range: element.querySelector('.job-range')?.textContent,
      lines: element.querySelectorAll('.job-line').length,
    }));
    expect(card.state).toBe('completed');
    const dropped = total - 2048 - 8192;
    expect(card.dropped).toBe(String(dropped));
    expect(card.range).toBe(
      `Kept bytes 0–2048 and ${total - 8192}–${total} of ${total.toLocaleString('en-US')} B; ${dropped.toLocaleString('en-US')} B dropped.`,
    );
    expect(card.lines).toBeLessThan(100);
    // The README's "Run code" picture: the card with its output and the dropped-bytes line.
    await panel.setViewport({ width: 420, height: 700 });
    const element = await panel.$('section.job-card');
    await element?.scrollIntoView();
    await element?.screenshot({ path: resolve(import.meta.dirname, '../screenshots/job-card.png') as `${string}.png` });
    const result = lastToolResult(server, 1);
    expect(result).toMatchObject({ ok: true, result: 'printed', outputBytes: total, outputBytesCut: dropped });
  });
});
