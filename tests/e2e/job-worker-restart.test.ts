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
  sendMessage,
  type ExtensionSession,
} from './extension-harness';

interface JobRow {
  type: string;
  jobId?: string;
  data?: { result?: string; reason?: string; output?: { totalBytes: number; head: { text: string } } };
}

/** The session's rows with their data, straight from IndexedDB (an extension page shares the runtime's origin). */
function storedEvents(page: Page, sessionId: string): Promise<JobRow[]> {
  return page.evaluate(
    (id) =>
      new Promise<JobRow[]>((resolve, reject) => {
        const request = indexedDB.open('splitbrain');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const database = request.result;
          const rows = database
            .transaction('events')
            .objectStore('events')
            .getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
          rows.onsuccess = () => {
            database.close();
            resolve((rows.result as { event: JobRow }[]).map((row) => row.event));
          };
          rows.onerror = () => reject(new Error(String(rows.error)));
        };
      }),
    sessionId,
  );
}

async function waitForLastJobState(panel: Page, states: string[], timeoutMs = 20_000): Promise<string> {
  const handle = await panel.waitForFunction(
    (wanted) => {
      const state = [...document.querySelectorAll('section.job-card')].at(-1)?.getAttribute('data-state') ?? '';
      return wanted.includes(state) ? state : false;
    },
    { timeout: timeoutMs, polling: 20 },
    states,
  );
  return String(await handle.jsonValue());
}

const FINAL_TYPES = ['job/completed', 'job/failed', 'job/killed', 'job/orphaned'];

/** A background job that prints one line, waits `seconds` and returns 42. */
function sleepingJob(seconds: number) {
  const code = `console.log('ran once');\nawait new Promise((resolve) => setTimeout(resolve, ${seconds * 1000}));\nreturn 42;`;
  return {
    steps: [
      { toolCalls: [{ name: 'runScript', arguments: { code, background: true, timeoutSeconds: 60 } }] },
      { text: 'It runs in the background.' },
    ],
  };
}

const SPUN = 'before the stop\nline 0\nline 1\n';

/** A background job that prints a few lines and then loops until its time limit. */
const spinningJob = {
  steps: [
    {
      toolCalls: [
        {
          name: 'runScript',
          arguments: {
            code: 'console.log("before the stop");\nfor (let i = 0; i < 2; i++) console.log("line", i);\nwhile (true) {}',
            background: true,
            timeoutSeconds: 4,
          },
        },
      ],
    },
    { text: 'It spins in the background.' },
  ],
};

describe('jobs: the service worker stopped while a background job runs, in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script: { turns: [sleepingJob(3), sleepingJob(30), spinningJob] } });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    panel = await session.openPanel();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  beforeEach(async () => {
    await panel.bringToFront();
  });

  /** The job's own rows, once it has a final state. */
  async function jobRowsWhenFinal(sessionId: string, jobId: string): Promise<JobRow[]> {
    await panel.waitForFunction(
      (id) =>
        ['completed', 'failed', 'killed', 'orphaned'].includes(
          document.querySelector(`section.job-card[data-job-id="${id}"]`)?.getAttribute('data-state') ?? '',
        ),
      { timeout: 30_000, polling: 50 },
      jobId,
    );
    return (await storedEvents(panel, sessionId)).filter((row) => row.jobId === jobId);
  }

  it('the offscreen host outlives the worker and keeps running the job: the restarted runtime adopts it on the host hello, and it completes once with its result', async () => {
    await sendMessage(panel, 'Run it in the background.');
    expect(await waitForLastJobState(panel, ['running'])).toBe('running');
    const sessionId = await currentSessionId(panel);
    const jobId = await panel.$$eval('section.job-card', (cards) => cards.at(-1)?.getAttribute('data-job-id') ?? '');
    const stopped = Date.now();
    await session.stopServiceWorker();
    const rows = await jobRowsWhenFinal(sessionId, jobId);
    console.log(`[e2e] worker stopped while the job ran; its final state came ${Date.now() - stopped} ms later`);
    expect(
      await panel.$eval(`section.job-card[data-job-id="${jobId}"]`, (card) => card.getAttribute('data-state')),
    ).toBe('completed');
    const finals = rows.filter((row) => FINAL_TYPES.includes(row.type));
    expect(finals.map((row) => row.type)).toEqual(['job/completed']);
    expect(finals[0].data?.result).toBe('42');
    // Started once, run once: one created, one running, and the output of one run.
    expect(rows.filter((row) => row.type === 'job/created')).toHaveLength(1);
    expect(rows.filter((row) => row.type === 'job/running')).toHaveLength(1);
    expect(finals[0].data?.output?.head.text).toBe('ran once\n');
    expect(finals[0].data?.output?.totalBytes).toBe('ran once\n'.length);
    // Nothing more after a second restart: a reconnect never starts a job, and its final state stays the one.
    await session.stopServiceWorker();
    await panel.waitForFunction(() => document.querySelector('textarea[aria-label="Message"]'), { timeout: 10_000 });
    await sendMessage(panel, 'Run it in the background.');
    expect(await waitForLastJobState(panel, ['running'])).toBe('running');
    const again = (await storedEvents(panel, sessionId)).filter((row) => row.jobId === jobId);
    expect(again.filter((row) => FINAL_TYPES.includes(row.type)).map((row) => row.type)).toEqual(['job/completed']);
    expect(again.filter((row) => row.type === 'job/running')).toHaveLength(1);
  });

  it('the host gone with the worker: the job is orphaned, never completed and never run again', async () => {
    const sessionId = await currentSessionId(panel);
    const jobId = await panel.$$eval('section.job-card', (cards) => cards.at(-1)?.getAttribute('data-job-id') ?? '');
    const worker = await session.worker();
    await worker.evaluate(() =>
      (
        globalThis as unknown as { chrome: { offscreen: { closeDocument(): Promise<void> } } }
      ).chrome.offscreen.closeDocument(),
    );
    await session.stopServiceWorker();
    const rows = await jobRowsWhenFinal(sessionId, jobId);
    expect(rows.filter((row) => FINAL_TYPES.includes(row.type)).map((row) => row.type)).toEqual(['job/orphaned']);
    expect(
      await panel.$eval(`section.job-card[data-job-id="${jobId}"]`, (card) => card.getAttribute('data-state')),
    ).toBe('orphaned');
    expect(rows.filter((row) => row.type === 'job/running')).toHaveLength(1);
    expect(rows.filter((row) => row.type === 'job/created')).toHaveLength(1);
    // The restarted runtime opened no host to run it in again.
    const hosts = await panel.evaluate(() =>
      (
        globalThis as unknown as { chrome: { runtime: { getContexts(filter: unknown): Promise<unknown[]> } } }
      ).chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] }),
    );
    expect(hosts).toHaveLength(0);
  });

  it('what a job printed before a tight loop survives the worker stopped while it loops, in its final state', async () => {
    await sendMessage(panel, 'Spin in the background.');
    await panel.waitForFunction(
      (text) => {
        const card = [...document.querySelectorAll('section.job-card')].at(-1);
        return (
          card?.getAttribute('data-state') === 'running' && card.querySelector('.job-output')?.textContent === text
        );
      },
      { timeout: 20_000, polling: 20 },
      SPUN.replaceAll('\n', ''),
    );
    const sessionId = await currentSessionId(panel);
    const jobId = await panel.$$eval('section.job-card', (cards) => cards.at(-1)?.getAttribute('data-job-id') ?? '');
    await session.stopServiceWorker();
    const rows = await jobRowsWhenFinal(sessionId, jobId);
    const finals = rows.filter((row) => FINAL_TYPES.includes(row.type));
    expect(finals.map((row) => row.type)).toEqual(['job/failed']);
    expect(finals[0].data?.reason).toBe('timeout');
    expect(finals[0].data?.output?.head.text).toBe(SPUN);
    expect(finals[0].data?.output?.totalBytes).toBe(SPUN.length);
    expect(await panel.$eval(`section.job-card[data-job-id="${jobId}"] .job-range`, (range) => range.textContent)).toBe(
      `All ${SPUN.length} B kept.`,
    );
  });
});
