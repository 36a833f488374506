import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { Step } from '../../scripts/scripted-model-server/script';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const SCREENSHOTS = resolve(import.meta.dirname, '../screenshots');

interface ChatMessage {
  role: string;
  content?: unknown;
}

const TABLE = {
  kind: 'table',
  title: 'Particle presets',
  data: {
    columns: [
      { label: 'Preset' },
      { label: 'Speed', type: 'number', unit: 'm/s' },
      { label: 'Count', type: 'number' },
      { label: 'Mode' },
    ],
    rows: [
      ['Calm', 2.5, 800, 'drift'],
      ['Storm', 18, 4000, 'vortex'],
      ['Default', 8, 2000, 'drift'],
      ['Swarm', 12, 6000, 'vortex'],
    ],
  },
};

const DIFF = {
  kind: 'diff',
  title: 'Manifest change',
  data: {
    filename: 'manifest.json',
    before: '{\n  "speed": 8,\n  "count": 2000,\n  "mode": "drift"\n}\n',
    after: '{\n  "speed": 12,\n  "count": 2000,\n  "mode": "vortex"\n}\n',
  },
};

const CHART = {
  kind: 'chart',
  title: 'Frame rate',
  data: {
    type: 'line',
    x: { label: 'particles', values: [1000, 2000, 4000, 8000] },
    y: { label: 'frame rate', unit: 'fps' },
    series: [
      { name: 'Chromium', values: [60, 60, 52, 31] },
      { name: 'Firefox', values: [60, 58, null, 27] },
    ],
  },
};

const PLAN = {
  kind: 'plan',
  title: 'Tuning',
  data: {
    steps: [
      { title: 'Open the particle field', state: 'done' },
      { title: 'Raise the speed', state: 'in-progress', detail: 'to 12 m/s' },
      { title: 'Check the frame rate', state: 'pending' },
    ],
  },
};

const CODE = {
  kind: 'code',
  title: 'Script',
  data: { language: 'ts', text: "const speed = 12; // <b>not bold</b>\nawait setParameter('speed', speed);" },
};

const FORM = {
  question: 'How should the label be printed?',
  answerType: 'form',
  form: {
    fields: [
      { id: 'width', label: 'Width', type: 'number', unit: 'mm', min: 10, max: 200, default: 50 },
      { id: 'material', label: 'Material', type: 'choice', options: ['paper', 'vinyl', 'polyester'], default: 'paper' },
      { id: 'color', label: 'Ink colour', type: 'color', default: '#1f4fd6' },
      { id: 'opacity', label: 'Opacity', type: 'slider', min: 0, max: 100, step: 5, unit: '%', default: 80 },
      { id: 'laminate', label: 'Laminate', type: 'toggle', default: true },
      { id: 'note', label: 'Note for the printer', type: 'text', required: false },
    ],
  },
};

function toolResults(server: ScriptedModelServer, requestIndex: number): unknown[] {
  const messages = (server.requests[requestIndex].body as { messages: ChatMessage[] }).messages;
  return messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(String(message.content)));
}

async function shoot(panel: Page, name: string): Promise<void> {
  await panel.bringToFront();
  await panel.evaluate(() => document.fonts.ready);
  await panel.screenshot({ path: resolve(SCREENSHOTS, `${name}.png`) as `${string}.png` });
}

/** Sets an input's value the way React sees typing. */
async function setInput(panel: Page, selector: string, value: string): Promise<void> {
  await panel.$eval(
    selector,
    (input, text) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    value,
  );
}

describe('product-rendered artifacts and forms', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    server = await startScriptedModelServer();
    session = await launchExtension(process.env.SPLITBRAIN_TEST_BUILD);
    await configureEndpoint(session, server.url, { label: 'OpenAI-compatible', scripted: false });
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('shows a table and a diff, versions an update, refuses a stale base, and takes a form answered in the panel', async () => {
    const started = Date.now();
    const firstTurn: { steps: Step[] } = {
      steps: [
        { toolCalls: [{ name: 'showArtifact', arguments: TABLE }] },
        { toolCalls: [{ name: 'showArtifact', arguments: DIFF }] },
        {
          toolCalls: [
            { name: 'showArtifact', arguments: CHART },
            { name: 'showArtifact', arguments: PLAN },
            { name: 'showArtifact', arguments: CODE },
          ],
        },
        { text: 'Here are the presets and the change.' },
      ],
    };
    server.setScript({ turns: [firstTurn] });
    const panel = await session.openPanel();
    await panel.setViewport({ width: 400, height: 720 });
    await sendMessage(panel, 'Show me the presets.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const table = await panel.$$eval('section.view-artifact-card[data-kind="table"]', (cards) => {
      const card = cards.at(-1)!;
      return {
        artifactId: card.getAttribute('data-artifact-id') ?? '',
        version: card.getAttribute('data-version'),
        headers: [...card.querySelectorAll('th')].map((cell) => cell.textContent),
        firstColumn: [...card.querySelectorAll('tbody tr')].map((row) => row.querySelector('td')?.textContent),
        html: card.querySelectorAll('script, iframe, [onclick]').length,
      };
    });
    expect(table.version).toBe('1');
    expect(table.headers).toEqual(['Preset', 'Speed (m/s)', 'Count', 'Mode']);
    expect(table.firstColumn).toEqual(['Calm', 'Storm', 'Default', 'Swarm']);
    expect(table.html).toBe(0);
    await panel.$$eval('section.view-artifact-card[data-kind="table"] th button', (buttons) =>
      (buttons[1] as HTMLButtonElement).click(),
    );
    await panel.waitForFunction(
      () =>
        [...document.querySelectorAll('section.view-artifact-card[data-kind="table"]')]
          .at(-1)
          ?.querySelector('tbody tr td')?.textContent === 'Calm',
    );
    const diff = await panel.$$eval('section.view-artifact-card[data-kind="diff"]', (cards) => {
      const card = cards.at(-1)!;
      return {
        added: [...card.querySelectorAll('.diff-line[data-kind="add"] .diff-text')].map((line) => line.textContent),
        removed: [...card.querySelectorAll('.diff-line[data-kind="remove"] .diff-text')].map(
          (line) => line.textContent,
        ),
      };
    });
    expect(diff).toEqual({
      added: ['  "speed": 12,', '  "mode": "vortex"'],
      removed: ['  "speed": 8,', '  "mode": "drift"'],
    });
    // Highlighting is loaded when code first needs it: wait for it rather than read the card before.
    await panel.waitForFunction(
      () =>
        [...document.querySelectorAll('section.view-artifact-card[data-kind="code"]')]
          .at(-1)
          ?.querySelector('code.hljs span[class^="hljs-"]') != null,
    );
    const others = await panel.evaluate(() => {
      const last = (kind: string) =>
        [...document.querySelectorAll(`section.view-artifact-card[data-kind="${kind}"]`)].at(-1)!;
      return {
        chartRuns: last('chart').querySelectorAll('path.chart-line')[1]?.getAttribute('d')?.split('M').length,
        chartLabel: last('chart').querySelector('svg')?.getAttribute('aria-label'),
        plan: [...last('plan').querySelectorAll('.plan-step')].map((step) => step.getAttribute('data-state')),
        codeHighlighted: last('code').querySelectorAll('code.hljs span[class^="hljs-"]').length > 0,
        codeBold: last('code').querySelectorAll('b').length,
        codeText: last('code').querySelector('code')?.textContent,
      };
    });
    expect(others).toEqual({
      chartRuns: 3,
      chartLabel: 'line chart: Frame rate',
      plan: ['done', 'in-progress', 'pending'],
      codeHighlighted: true,
      codeBold: 0,
      codeText: "const speed = 12; // <b>not bold</b>\nawait setParameter('speed', speed);\n",
    });
    await panel.$eval('section.view-artifact-card[data-kind="table"]', (card) => card.scrollIntoView());
    await shoot(panel, 'table-artifact');

    const update = (speed: number) => ({
      ...TABLE,
      artifactId: table.artifactId,
      baseVersion: 1,
      data: { ...TABLE.data, rows: [['Default', speed, 2000, 'drift'], ...TABLE.data.rows.slice(0, 2)] },
    });
    server.setScript({
      turns: [
        firstTurn,
        {
          steps: [
            { toolCalls: [{ name: 'showArtifact', arguments: update(10) }] },
            { toolCalls: [{ name: 'showArtifact', arguments: update(99) }] },
            { text: 'Updated once; the second edit was based on an old version.' },
          ],
        },
        { steps: [{ toolCalls: [{ name: 'askUser', arguments: FORM }] }, { text: 'Printing it so.' }] },
      ],
    });
    const beforeUpdate = server.requests.length;
    await sendMessage(panel, 'Change the default speed.');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    const [accepted, conflict] = toolResults(server, server.requests.length - 1).slice(-2);
    expect(accepted).toMatchObject({ ok: true, artifactId: table.artifactId, version: 2 });
    expect(conflict).toMatchObject({
      ok: false,
      code: 'VERSION_CONFLICT',
      artifactId: table.artifactId,
      currentVersion: 2,
    });
    expect(server.requests.length - beforeUpdate).toBe(3);
    const versions = await panel.$$eval(`section.view-artifact-card[data-artifact-id="${table.artifactId}"]`, (cards) =>
      cards.map((card) => ({
        version: card.getAttribute('data-version'),
        label: card.querySelector('.artifact-version')?.textContent,
        buttons: [...card.querySelectorAll('.artifact-version-button')].map((button) => button.textContent),
      })),
    );
    expect(versions).toEqual([
      { version: '1', label: 'v1 · latest v2', buttons: ['v1', 'v2'] },
      { version: '2', label: 'v2', buttons: ['v1', 'v2'] },
    ]);
    // The older version stays reachable from the newest card.
    await panel.$$eval(`section.view-artifact-card[data-artifact-id="${table.artifactId}"]`, (cards) =>
      (cards.at(-1)!.querySelector('.artifact-version-button') as HTMLButtonElement).click(),
    );
    await panel.waitForFunction(
      (id) =>
        [...document.querySelectorAll(`section.view-artifact-card[data-artifact-id="${id}"]`)]
          .at(-1)
          ?.getAttribute('data-version') === '1',
      {},
      table.artifactId,
    );
    expect(
      await panel.$$eval('section.tool-card[data-status="failed"]', (cards) =>
        cards.at(-1)?.textContent?.includes('VERSION_CONFLICT'),
      ),
    ).toBe(true);

    await sendMessage(panel, 'Print a label.');
    const form = await panel.waitForSelector('section.ask-card[data-status="pending"] form.form-answer');
    const widthInput = 'section.ask-card[data-status="pending"] input[data-field-id="width"]';
    expect(
      await panel.$eval(widthInput, (input) => ({
        label: document.querySelector(`label[for="${input.id}"]`)?.textContent,
        help: document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent,
      })),
    ).toEqual({ label: 'Width (mm)', help: '10 to 200 mm' });
    await setInput(panel, widthInput, '500');
    await panel.click('section.ask-card[data-status="pending"] button[data-action-id="submit"]');
    const problem = await panel.waitForSelector('.form-problem[data-problem-path="/payload/width"]');
    expect(await problem!.evaluate((element) => element.textContent)).toBe('must be at most 200 mm');
    expect(await panel.$eval(widthInput, (input) => input.getAttribute('aria-invalid'))).toBe('true');
    expect(await panel.$$eval('section.ask-card', (cards) => cards.at(-1)?.getAttribute('data-status'))).toBe(
      'pending',
    );
    await form!.evaluate((element) => element.closest('section')?.scrollIntoView({ block: 'start' }));
    await shoot(panel, 'form');
    const beforeAnswer = server.requests.length;
    await setInput(panel, widthInput, '120');
    await panel.click('section.ask-card[data-status="pending"] input[type="radio"][value="vinyl"]');
    await panel.focus(widthInput);
    await panel.keyboard.press('Enter');
    expect(await waitForTurnEnd(panel, 2)).toBe('completed');
    expect(server.requests.length - beforeAnswer).toBe(1);
    expect(toolResults(server, server.requests.length - 1).at(-1)).toEqual({
      ok: true,
      answer: {
        actionId: 'submit',
        values: { width: 120, material: 'vinyl', color: '#1f4fd6', opacity: 80, laminate: true },
      },
    });
    expect(await panel.$$eval('section.ask-card', (cards) => cards.at(-1)?.textContent)).toContain(
      'Answered (Submit): Width 120 mm, Material vinyl, Ink colour #1f4fd6, Opacity 80 %, Laminate on',
    );
    console.log(`view artifacts e2e: ${Date.now() - started} ms for three turns (table, diff, update, conflict, form)`);
    await panel.close();
  });
});
