import { afterAll, beforeAll, expect } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { Script } from '../../scripts/scripted-model-server/script';
import { mulberry32 } from '../../scripts/scripted-model-server/mulberry32';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  readStoredLog,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
  type StoredRow,
} from './extension-harness';

const FINAL_STATES = ['completed', 'interrupted', 'aborted'];

interface SeededRun {
  script: Script;
  /** setParameter and setParameters calls: each is one `apply` in the target frame. */
  applyingCalls: number;
  toolCalls: number;
}

/** A random turn of 1-3 tool steps with 1-2 applying calls each (the first may read the parameters first), every value distinct so that no step repeats the one before. */
export function seededRun(seed: number): SeededRun {
  const random = mulberry32(Math.imul(seed, 0x9e3779b9) >>> 0);
  const pick = (count: number) => Math.floor(random() * count);
  const modes = ['auto', 'manual', 'vortex'];
  let nextSpeed = 1 + pick(10);
  const speed = () => (nextSpeed += 1 + pick(3));
  const applying = () =>
    pick(2) === 0
      ? { name: 'setParameter', arguments: { param: 'speed', value: speed() } }
      : {
          name: 'setParameters',
          arguments: {
            changes: [
              { param: 'speed', value: speed() },
              { param: 'mode', value: modes[pick(3)] },
            ],
          },
        };
  const steps: Script['turns'][number]['steps'] = [];
  let applyingCalls = 0;
  let toolCalls = 0;
  // The step count cycles with the seed so that a few seeds cover one, two and three tool steps.
  const stepCount = 1 + ((seed - 1) % 3);
  for (let index = 0; index < stepCount; index++) {
    const applyingInStep = index === 0 ? 1 : 1 + pick(2);
    const calls = [
      ...(index === 0 && pick(2) === 0 ? [{ name: 'getParameters', arguments: {} }] : []),
      ...Array.from({ length: applyingInStep }, applying),
    ];
    applyingCalls += applyingInStep;
    toolCalls += calls.length;
    steps.push({ toolCalls: calls, delayMs: 10 });
  }
  steps.push({ text: `Seed ${seed} is done.`, delayMs: 10 });
  return { script: { turns: [{ steps }] }, applyingCalls, toolCalls };
}

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
      cards: [...turn.querySelectorAll('section.tool-card')].map(
        (card) => `${card.getAttribute('aria-label')}:${card.getAttribute('data-status')}`,
      ),
      text: [...turn.querySelectorAll('.assistant-message')].map((item) => item.textContent).join('|'),
    };
  });
}

async function applyCount(session: ExtensionSession): Promise<number> {
  const frame = await session.targetFrame('particles');
  return frame.evaluate(
    () =>
      (window as unknown as { SplitbrainBridge: { debug: { applyCount: number } } }).SplitbrainBridge.debug.applyCount,
  );
}

interface RunResult {
  view: RunView;
  rows: StoredRow[];
  applies: number;
  /** The rows already in IndexedDB when the worker was stopped: acknowledged, so they must all survive. */
  acknowledged: StoredRow[];
}

export interface WorkerStopHarness {
  server(): ScriptedModelServer;
  session(): ExtensionSession;
  /** An extension page that reads IndexedDB while the worker is stopped. */
  inspector(): Page;
  /** Runs every seed's turn undisturbed, then once per durable write with the worker stopped there; asserts none broke a rule. */
  expectNothingLostAtEveryWrite(seeds: number[]): Promise<void>;
}

/** One browser for a file: the scripted server, the extension and its inspector page, set up and closed by the file's hooks. */
export function workerStopHarness(firstSeed: number): WorkerStopHarness {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let inspector: Page;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script: seededRun(firstSeed).script });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    inspector = await session.browser.newPage();
    await inspector.goto(`chrome-extension://${session.extensionId}/options.html`);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  async function runOnce(killAtRows: number | undefined): Promise<RunResult> {
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    const stageOpen = (await session.browser.pages()).some((page) => page.url().includes('/stage.html'));
    const appliesBefore = stageOpen ? await applyCount(session) : 0;
    await sendMessage(panel, 'Change the particles.');
    const sessionId = await currentSessionId(panel);
    let acknowledged: StoredRow[] = [];
    if (killAtRows !== undefined) {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const rows = await readStoredLog(inspector, sessionId);
        if (rows.length >= killAtRows) {
          await session.stopServiceWorker();
          acknowledged = rows;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(acknowledged.length, `the worker was stopped once ${killAtRows} rows were durable`).toBeGreaterThanOrEqual(
        killAtRows,
      );
    }
    await waitForTurnEnd(panel, 0, 45_000);
    await panel.waitForFunction(() => !document.querySelector('.status-line')?.textContent, {
      polling: 100,
      timeout: 20_000,
    });
    const view = await viewOf(panel);
    const rows = await readStoredLog(inspector, sessionId);
    const applies = (await applyCount(session)) - appliesBefore;
    await panel.close();
    return { view, rows, applies, acknowledged };
  }

  async function expectNothingLostAtEveryWrite(seeds: number[]): Promise<void> {
    const report: string[] = [];
    let runs = 0;
    let killPoints = 0;
    let failures = 0;
    const distinctStates = new Set<string>();
    const started = Date.now();
    for (const seed of seeds) {
      const { script, applyingCalls, toolCalls } = seededRun(seed);
      server.setScript(script);
      const reference = await runOnce(undefined);
      runs++;
      expect(reference.view.status, `seed ${seed} undisturbed`).toBe('completed');
      expect(
        reference.view.cards.every((card) => card.endsWith(':done')) && reference.view.cards.length === toolCalls,
        `seed ${seed} cards ${reference.view.cards.join(', ')}`,
      ).toBe(true);
      expect(reference.applies, `seed ${seed} undisturbed applies`).toBe(applyingCalls);
      report.push(
        `seed ${seed}: ${script.turns[0].steps.length - 1} tool steps, ${toolCalls} tool calls (${applyingCalls} applying), ${reference.rows.length} durable rows undisturbed`,
      );
      // Every durable row of the undisturbed run is a kill point (rows written in one transaction give the same state).
      const kills = reference.rows.map((_, index) => index + 1);
      for (const killAtRows of kills) {
        const run = await runOnce(killAtRows);
        runs++;
        killPoints++;
        distinctStates.add(`${seed}:${run.acknowledged.length}`);
        const problems: string[] = [];
        const seqs = run.rows.map((row) => row.seq);
        if (!seqs.every((seq, index) => seq === index + 1)) problems.push(`seq not contiguous: ${seqs.join(',')}`);
        const lost = run.acknowledged.filter(
          (row) =>
            !run.rows.some(
              (kept) => kept.seq === row.seq && kept.type === row.type && kept.toolCallId === row.toolCallId,
            ),
        );
        if (lost.length > 0) problems.push(`lost ${lost.map((row) => `${row.seq}:${row.type}`).join(', ')}`);
        if (run.applies > applyingCalls) problems.push(`${run.applies} applies for ${applyingCalls} calls`);
        const doneApplying = run.view.cards.filter((card) => /setParameters?:done$/.test(card)).length;
        if (run.applies < doneApplying) problems.push(`${doneApplying} calls shown done but ${run.applies} applies`);
        if (!FINAL_STATES.includes(run.view.status)) problems.push(`turn shown as ${run.view.status}`);
        if (run.view.cards.some((card) => !/:(done|unknown|failed)$/.test(card)))
          problems.push(`cards ${run.view.cards.join(', ')}`);
        const sameAsReference = JSON.stringify(run.view) === JSON.stringify(reference.view);
        if (problems.length > 0) failures++;
        report.push(
          `seed ${seed} kill at row ${killAtRows} (${run.acknowledged.at(-1)?.type}, ${run.acknowledged.length} rows durable): ${run.view.status}, applies ${run.applies}/${applyingCalls}, events ${run.rows.length}${sameAsReference ? '' : `, differs from the undisturbed run: ${run.view.cards.join(', ')}`}${problems.length ? ` FAILED ${problems.join('; ')}` : ''}`,
        );
      }
    }
    console.log(
      `[service-worker restarts] seeds ${seeds.join(', ')}, a kill at every durable write of each\n${report.join('\n')}\nruns: ${runs} (${seeds.length} undisturbed), kill points: ${killPoints} (${distinctStates.size} distinct durable states at the kill), failures: ${failures}, ${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(failures).toBe(0);
  }

  return {
    server: () => server,
    session: () => session,
    inspector: () => inspector,
    expectNothingLostAtEveryWrite,
  };
}
