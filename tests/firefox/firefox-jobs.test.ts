import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { EXTENSION_ORIGIN_PROBES } from '../support/extension-origin-probes';
import { firefoxSuite } from './firefox-suite';
import { firstTurnEnd, openPanel, sendFromComposer, until } from './sidebar-page';

describe('jobs in Firefox ESR', () => {
  let collected = 0;
  const suite = firefoxSuite({
    collector: async () => {
      const collector = createServer((request, response) => {
        collected += 1;
        response.setHeader('Access-Control-Allow-Origin', '*');
        response.end('reached');
      });
      await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
      return {
        url: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        close: () => new Promise((resolve) => collector.close(resolve)),
      };
    },
    server: () => startScriptedModelServer(),
  });

  beforeAll(() => {
    const code = "const squares = input.numbers.map((n) => n * n);\nconsole.log('squared', squares.length);\nsquares";
    suite.server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'runScript', arguments: { code, input: { numbers: [1, 2, 3] } } }] },
            { text: 'The squares are 1, 4 and 9.' },
          ],
        },
        {
          steps: [
            {
              toolCalls: [
                {
                  name: 'runScript',
                  arguments: { code: ESCAPE_PROBES, input: { url: suite.collector.url, extension: suite.base } },
                },
              ],
            },
            { text: 'Probed.' },
          ],
        },
        { steps: [{ toolCalls: [{ name: 'runScript', arguments: { code: SPINNING } }] }, { text: 'Stopped.' }] },
        {
          steps: [
            { toolCalls: [{ name: 'runScript', arguments: { code: SPINNING, timeoutSeconds: 1 } }] },
            { text: 'It timed out.' },
          ],
        },
      ],
    });
  });

  it('runs a script in the background page host and returns its result and output to the model', async () => {
    const { marionette, base, server } = suite;
    await openPanel(marionette, base, server.url);
    await sendFromComposer(marionette, 'Square 1, 2 and 3.');
    const status = await firstTurnEnd(marionette);
    expect(status).toBe('completed');
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages;
    const toolMessage = messages.filter((message) => message.role === 'tool').at(-1);
    const result = JSON.parse(String(toolMessage?.content)) as Record<string, unknown>;
    expect(result).toMatchObject({ ok: true, state: 'completed', result: [1, 4, 9], output: 'squared 3\n' });
    const card = await marionette.execute<string>(
      "const card = document.querySelector('section.job-card'); return card ? card.getAttribute('data-state') : 'none';",
    );
    expect(card).toBe('completed');
  }, 120_000);

  it('escape probes from a script in the background page host: none succeeds and the collector sees no request', async () => {
    const { marionette, server } = suite;
    await sendFromComposer(marionette, 'Probe the sandbox.');
    await until('the second turn to end', () =>
      marionette.execute<boolean>(
        "const turn = [...document.querySelectorAll('article.turn')].at(-1); return !!turn?.textContent?.includes('Probe the sandbox.') && turn.getAttribute('data-status') === 'completed';",
      ),
    );
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages;
    const result = JSON.parse(String(messages.filter((message) => message.role === 'tool').at(-1)?.content)) as {
      ok: boolean;
      result: Record<string, boolean>;
    };
    expect(result.ok).toBe(true);
    const escaped = Object.entries(result.result).filter(([, succeeded]) => succeeded);
    console.log(
      `[firefox] ${Object.keys(result.result).length} escape probes, ${escaped.length} succeeded, collector saw ${collected} requests`,
    );
    expect(Object.keys(result.result).length).toBeGreaterThanOrEqual(26);
    expect(escaped).toEqual([]);
    expect(collected).toBe(0);
  }, 120_000);

  it('what a job printed just before a tight loop reaches the card and the model, on Stop and on the time limit', async () => {
    const { marionette, server } = suite;
    const lastCard = () =>
      marionette.execute<{ state: string; lines: string[]; range: string }>(
        "const card = [...document.querySelectorAll('section.job-card')].at(-1); return { state: card.getAttribute('data-state'), lines: [...card.querySelectorAll('.job-line')].map((line) => line.textContent), range: card.querySelector('.job-range').textContent };",
      );
    const turnEnded = (text: string) =>
      until(`the turn "${text}" to end`, () =>
        marionette.execute<boolean>(
          "const turn = [...document.querySelectorAll('article.turn')].at(-1); return !!turn?.textContent?.includes(arguments[0]) && turn.getAttribute('data-status') === 'completed';",
          [text],
        ),
      );
    const lastToolResult = () =>
      JSON.parse(
        String(
          (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages
            .filter((message) => message.role === 'tool')
            .at(-1)?.content,
        ),
      ) as Record<string, unknown>;
    const lines = ['spinning', 'line 0', 'line 1', 'line 2'];

    await sendFromComposer(marionette, 'Spin until stopped.');
    await until('the running card with its output', async () => {
      const card = await lastCard().catch(() => undefined);
      return card?.state === 'running' && card.lines.length === lines.length;
    });
    await marionette.execute(
      "[...document.querySelectorAll('section.job-card')].at(-1).querySelector('button.job-stop').click(); return true;",
    );
    await turnEnded('Spin until stopped.');
    expect(await lastCard()).toEqual({ state: 'killed', lines, range: `All ${SPUN.length} B kept.` });
    expect(lastToolResult()).toMatchObject({ state: 'killed', output: SPUN, outputBytes: SPUN.length });

    await sendFromComposer(marionette, 'Spin until the limit.');
    await turnEnded('Spin until the limit.');
    expect(await lastCard()).toEqual({ state: 'failed', lines, range: `All ${SPUN.length} B kept.` });
    expect(lastToolResult()).toMatchObject({
      state: 'failed',
      reason: 'timeout',
      output: SPUN,
      outputBytes: SPUN.length,
    });
  }, 120_000);
});

const SPINNING = 'console.log("spinning");\nfor (let i = 0; i < 3; i++) console.log("line", i);\nwhile (true) {}';
const SPUN = 'spinning\nline 0\nline 1\nline 2\n';

/** What a script might try to leave its sandbox by; each resolves true only if it got out. */
const ESCAPE_PROBES = `
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
  extensionApi: () => typeof chrome !== 'undefined' && !!chrome.runtime?.id || typeof browser !== 'undefined',
  parentFrame: () => typeof parent !== 'undefined' || typeof top !== 'undefined' || typeof opener !== 'undefined',
  dom: () => typeof document !== 'undefined' || typeof window !== 'undefined',
  indexedDB: () => new Promise((resolve) => { const request = indexedDB.open('probe'); request.onsuccess = () => resolve(true); request.onerror = () => resolve(false); }),
  cacheStorage: () => caches.open('probe').then(() => true),
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
