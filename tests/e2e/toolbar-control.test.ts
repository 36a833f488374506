import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'puppeteer-core';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import {
  applyCount,
  chooseTarget,
  openPopup,
  targetState,
  typeInto,
  waitForField,
  waitForFormNotice,
  waitForResult,
  waitForTargetValue,
} from './popup-driver';

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

function toolResults(body: unknown): unknown[] {
  return (body as ChatRequestBody).messages
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(String(message.content)));
}

describe('toolbar control of the active target in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let popup: Page;
  let frame: Frame;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    popup = await openPopup(session);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('lists the targets and opens one in the stage through the tool path', async () => {
    const titles = await popup.$$eval('.target-title', (items) => items.map((item) => item.firstChild?.textContent));
    expect(titles).toEqual(
      expect.arrayContaining(['Particle field', '3D scene', 'Data chart', 'Step synthesizer', 'Typography playground']),
    );
    await chooseTarget(popup, 'Particle field');
    frame = await session.targetFrame('particles');
    const active = await popup.$$eval('button.target-open[aria-current="true"] .target-title', (items) =>
      items.map((item) => item.firstChild?.textContent),
    );
    expect(active).toEqual(['Particle field']);
    const controls = await popup.$$eval('.parameter-field [aria-label]', (items) =>
      items.map(
        (item) => `${item.tagName.toLowerCase()}:${item.getAttribute('type') ?? ''}:${item.getAttribute('aria-label')}`,
      ),
    );
    expect(controls).toEqual([
      'input:range:speed slider',
      'input:number:speed',
      'select::mode',
      'input:range:particle_count slider',
      'input:number:particle_count',
      'input:color:color',
      'input:checkbox:show_vectors',
      'div::position',
      'input:number:position x',
      'input:number:position y',
      'input:number:position z',
    ]);
    expect(await popup.$eval('.parameter-field[data-parameter="speed"]', (field) => field.textContent)).toContain(
      'm/s',
    );
    expect(
      await popup.$eval('input[aria-label="speed slider"]', (slider) => [
        slider.getAttribute('min'),
        slider.getAttribute('max'),
        slider.getAttribute('step'),
      ]),
    ).toEqual(['0', '50', '0.5']);
  });

  it('applies a typed value inside the target and shows the applied value', async () => {
    await typeInto(popup, 'speed', '20');
    await waitForTargetValue(frame, 'speed', 20);
    await waitForResult(popup, 'speed', 'Applied: 20 m/s.');
  });

  it('sends a slider drag without one request per step and always lands on the final value', async () => {
    const before = await applyCount(frame);
    await popup.bringToFront();
    await popup.focus('input[aria-label="speed slider"]');
    const steps = 24;
    for (let step = 0; step < steps; step++) await popup.keyboard.press('ArrowRight');
    await waitForTargetValue(frame, 'speed', 32);
    await waitForField(popup, 'speed', '32');
    await waitForResult(popup, 'speed', 'Applied: 32 m/s.');
    const applies = (await applyCount(frame)) - before;
    console.log(`[e2e] ${steps} slider steps reached the target in ${applies} applies`);
    expect(applies).toBeGreaterThanOrEqual(1);
    expect(applies).toBeLessThan(steps);
  });

  it('applies toggles, selects and vector elements, and says when a value was clamped', async () => {
    await popup.click('input[aria-label="show_vectors"]');
    await waitForTargetValue(frame, 'show_vectors', true);
    await popup.select('select[aria-label="mode"]', 'vortex');
    await waitForTargetValue(frame, 'mode', 'vortex');
    await popup.focus('input[aria-label="particle_count"]');
    await popup.keyboard.press('ArrowUp');
    await waitForTargetValue(frame, 'particle_count', 810);
    await waitForResult(popup, 'particle_count', 'Applied: 810 particles.');
    await typeInto(popup, 'position y', '30');
    await waitForTargetValue(frame, 'position', [0, 30, 12]);
    await typeInto(popup, 'speed', '80');
    await waitForTargetValue(frame, 'speed', 50);
    await waitForResult(popup, 'speed', 'Out of range: asked 80 m/s, applied 50 m/s.');
    await waitForField(popup, 'speed', '50');
  });

  it('shows what the popup set to the model, and what the model sets in the popup, live', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'getParameters', arguments: {} }] },
            {
              toolCalls: [
                {
                  name: 'setParameters',
                  arguments: {
                    changes: [
                      { param: 'speed', value: 12.5 },
                      { param: 'position', value: [3, 4, 5] },
                    ],
                  },
                },
              ],
            },
            { text: 'Speed is 12.5 m/s and the camera is at [3, 4, 5].' },
          ],
        },
      ],
    });
    server.clearRequests();
    const panel = await session.openPanel();
    await sendMessage(panel, 'Slow the particles to 12.5 m/s and move the camera to [3, 4, 5].');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');

    const [readBack] = toolResults(server.requests[1].body) as {
      parameters: { settings: { speed: { value: number } }; view: { position: { value: number[] } } };
    }[];
    expect(readBack.parameters.settings.speed.value).toBe(50);
    expect(readBack.parameters.view.position.value).toEqual([0, 30, 12]);

    await waitForField(popup, 'speed', '12.5');
    await waitForField(popup, 'position x', '3');
    await waitForField(popup, 'position y', '4');
    await waitForField(popup, 'position z', '5');
    await waitForResult(popup, 'speed', 'Changed elsewhere to 12.5 m/s.');
    expect(await popup.$eval('input[aria-label="speed slider"]', (slider) => (slider as HTMLInputElement).value)).toBe(
      '12.5',
    );
    expect(await targetState(frame)).toMatchObject({ speed: 12.5, position: [3, 4, 5] });
    await panel.close();
  });

  it('resets the target and the form to the defaults with one click', async () => {
    await popup.bringToFront();
    await popup.click('button::-p-text(Reset)');
    await waitForTargetValue(frame, 'speed', 8);
    expect(await targetState(frame)).toMatchObject({
      speed: 8,
      mode: 'auto',
      show_vectors: false,
      position: [0, 12, 12],
      color: '#5ec8ff',
      particle_count: 800,
    });
    await waitForField(popup, 'speed', '8');
    await waitForField(popup, 'position y', '12');
    expect(await popup.$eval('select[aria-label="mode"]', (select) => (select as HTMLSelectElement).value)).toBe(
      'auto',
    );
    expect(
      await popup.$eval('input[aria-label="show_vectors"]', (toggle) => (toggle as HTMLInputElement).checked),
    ).toBe(false);
    await waitForFormNotice(popup, 'Every parameter is back to its default.');
  });

  it('opens the chat side panel from the popup', async () => {
    expect(session.browser.targets().some((target) => target.url().endsWith('/sidepanel.html'))).toBe(false);
    await popup.bringToFront();
    await popup.click('button::-p-text(Open chat)');
    const panel = await session.browser.waitForTarget((target) => target.url().endsWith('/sidepanel.html'), {
      timeout: 10_000,
    });
    expect(panel.url()).toContain(session.extensionId);
    expect(await popup.$('.popup-notice')).toBeNull();
  });
});
