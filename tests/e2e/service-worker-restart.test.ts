import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../model-server/scripted-model-server';
import type { Script } from '../model-server/script';
import { configureEndpoint, currentSessionId, launchExtension, readStoredLog, sendMessage, waitForTurnEnd, type ExtensionSession } from './extension-harness';

const script: Script = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }], delayMs: 30 },
        { toolCalls: [{ name: 'setParameters', arguments: { changes: [{ param: 'speed', value: 21 }, { param: 'mode', value: 'vortex' }] } }], delayMs: 30 },
        { text: 'Speed is 21 m/s and the particles swirl.', delayMs: 30 },
      ],
    },
  ],
};

/** The durable writes of a run, in the order the runtime makes them; the worker is stopped right after each. */
const KILL_POINTS = ['turn/started', 'step/started', 'tool/started', 'tool/completed', 'step/completed', 'assistant/completed', 'turn/completed'];

interface RunView {
  status: string;
  cards: string[];
  text: string;
}

async function viewOf(panel: Page): Promise<RunView> {
  return panel.evaluate(() => {
    const turn = document.querySelector('article.turn')!;
    return {
      status: turn.getAttribute('data-status') ?? '',
      cards: [...turn.querySelectorAll('section.tool-card')].map((card) => `${card.getAttribute('aria-label')}:${card.getAttribute('data-status')}`),
      text: [...turn.querySelectorAll('.assistant-message')].map((item) => item.textContent).join('|'),
    };
  });
}

async function applyCount(session: ExtensionSession): Promise<number> {
  const frame = await session.targetFrame('particles');
  return frame.evaluate(() => (window as unknown as { SplitbrainBridge: { debug: { applyCount: number } } }).SplitbrainBridge.debug.applyCount);
}

describe('the service worker is stopped after each kind of durable write', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let inspector: Page;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    inspector = await session.browser.newPage();
    await inspector.goto(`chrome-extension://${session.extensionId}/options.html`);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  async function runOnce(killAfter: string | undefined): Promise<{ view: RunView; seqs: number[]; applies: number; killed: boolean }> {
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    const appliesBefore = killAfter === undefined && !(await session.browser.pages()).some((page) => page.url().includes('/stage.html')) ? 0 : await applyCount(session);
    await sendMessage(panel, 'Faster, and make them swirl.');
    const sessionId = await currentSessionId(panel);
    let killed = false;
    if (killAfter) {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const rows = await readStoredLog(inspector, sessionId);
        if (rows.some((row) => row.type === killAfter)) {
          await session.stopServiceWorker();
          killed = true;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    await waitForTurnEnd(panel, 0, 45_000);
    await panel.waitForFunction(() => !document.querySelector('.status-line')?.textContent, { polling: 100, timeout: 20_000 });
    const view = await viewOf(panel);
    const seqs = (await readStoredLog(inspector, sessionId)).map((row) => row.seq);
    const applies = (await applyCount(session)) - appliesBefore;
    await panel.close();
    return { view, seqs, applies, killed };
  }

  it('ends every run in the same state as an undisturbed one, never reuses a seq, and applies exactly once', async () => {
    const reference = await runOnce(undefined);
    expect(reference.view).toEqual({ status: 'completed', cards: ['Tool call getParameters:done', 'Tool call setParameters:done'], text: 'Speed is 21 m/s and the particles swirl.' });
    expect(reference.applies).toBe(1);
    const report: string[] = [];
    for (const killAfter of KILL_POINTS) {
      const run = await runOnce(killAfter);
      report.push(`${killAfter}: killed=${run.killed} status=${run.view.status} applies=${run.applies} events=${run.seqs.length}`);
      expect(run.killed, `the worker was stopped after ${killAfter}`).toBe(true);
      expect(run.seqs, `seq after ${killAfter}`).toEqual(run.seqs.map((_, index) => index + 1));
      expect(run.applies, `applies after ${killAfter}`).toBe(1);
      expect(run.view, `state after ${killAfter}`).toEqual(reference.view);
    }
    console.log(`[service-worker restarts]\n${report.join('\n')}`);
  });

  it('shows a call cut off in flight as "outcome unknown" and never runs it again', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'slow-counter' } }] },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'count', value: 7 } }] },
            { text: 'I could not confirm the change.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Set the slow counter to 7.');
    const sessionId = await currentSessionId(panel);
    const deadline = Date.now() + 20_000;
    let started = 0;
    while (Date.now() < deadline && started < 2) {
      started = (await readStoredLog(inspector, sessionId)).filter((row) => row.type === 'tool/started').length;
      if (started < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(started).toBe(2);
    await session.stopServiceWorker();
    expect(await waitForTurnEnd(panel, 0, 45_000)).toBe('completed');
    const cards = await panel.$$eval('section.tool-card', (items) => items.map((item) => item.getAttribute('data-status')));
    const cardText = await panel.$$eval('section.tool-card', (items) => items.map((item) => item.textContent).join(' | '));
    expect(cards, cardText).toEqual(['done', 'unknown']);
    const frame = await session.targetFrame('slow-counter');
    await frame.waitForFunction(() => (window as unknown as { SplitbrainBridge: { isReady(): boolean } }).SplitbrainBridge.isReady(), { polling: 100, timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await frame.evaluate(() => (window as unknown as { SplitbrainBridge: { debug: { applyCount: number } } }).SplitbrainBridge.debug.applyCount)).toBe(1);
    const rows = await readStoredLog(inspector, sessionId);
    expect(rows.filter((row) => row.type === 'tool/unknown')).toHaveLength(1);
    const lastBody = server.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(lastBody.messages.filter((message) => message.role === 'tool').at(-1)!.content).toContain('Outcome unknown');
    await panel.close();
  });
});
