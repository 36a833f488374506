import { afterAll, beforeAll, expect, it } from 'vitest';
import { cssPixelsPerScreenshotPixel, screenshotToViewportCss } from '@/lib/page-observation/screenshot-point';
import { decodePng } from '../support/decode-png';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { expectationFor, launchPageAgent, refOf, type PageAgentSession } from './page-agent-harness';

/*
 * Acceptance 3: a point read off the observation's screenshot (captureVisibleTab, in screenshot pixels) and
 * converted with the observation's scale lands on the target at its four corners and its centre, at device pixel
 * ratio 1 and 2 (emulated: Emulation.setDeviceMetricsOverride) and browser zoom 90% and 150% (real:
 * chrome.tabs.setZoom).
 */
const CONFIGURATIONS = [
  { deviceScaleFactor: 1, zoom: 1 },
  { deviceScaleFactor: 2, zoom: 1 },
  { deviceScaleFactor: 1, zoom: 0.9 },
  { deviceScaleFactor: 1, zoom: 1.5 },
  { deviceScaleFactor: 2, zoom: 0.9 },
  { deviceScaleFactor: 2, zoom: 1.5 },
];
/** The target's colour (#36c); text antialiasing may shift a channel by a few levels. */
const TARGET_RGB = [51, 102, 204];
/** Chromium allows two captureVisibleTab calls a second. */
const CAPTURE_INTERVAL_MS = 550;

let servers: PageServers;
let agent: PageAgentSession;

beforeAll(async () => {
  servers = await startPageServers();
  agent = await launchPageAgent();
});

afterAll(async () => {
  await agent?.close();
  await servers?.close();
});

interface Self {
  zoom(tabId: number, factor: number): Promise<void>;
  capture(windowId: number): Promise<string>;
  windowOf(tabId: number): Promise<number>;
}

it('screenshot-px points land on the target at DPR 1 and 2 and zoom 90% and 150%', async () => {
  const { page, tabId } = await agent.open(`${servers.origin}/coordinates.html`);
  const windowId = await agent.worker.evaluate((id) => (self as unknown as Self).windowOf(id), tabId);
  let lastCapture = 0;
  const results: string[] = [];
  for (const { deviceScaleFactor, zoom } of CONFIGURATIONS) {
    await page.setViewport({ width: 800, height: 600, deviceScaleFactor });
    await agent.worker.evaluate((id, factor) => (self as unknown as Self).zoom(id, factor), tabId, zoom);
    await page.waitForFunction((ratio) => Math.abs(devicePixelRatio - ratio) < 0.01, {}, deviceScaleFactor * zoom);
    await page.evaluate(() => ((window as unknown as { hits: unknown[] }).hits = []));
    const observation = await agent.observe(tabId);
    const target = refOf(observation, 'button', 'Target');
    const box = observation.refs[target].box;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastCapture + CAPTURE_INTERVAL_MS - Date.now())));
    const dataUrl = await agent.worker.evaluate((id) => (self as unknown as Self).capture(id), windowId);
    lastCapture = Date.now();
    const screenshot = decodePng(Buffer.from(dataUrl.split(',')[1], 'base64'));
    const scale = cssPixelsPerScreenshotPixel(observation.viewport, screenshot.width);
    const inset = 3;
    const corners = [
      [box.x + inset, box.y + inset],
      [box.x + box.width - inset, box.y + inset],
      [box.x + inset, box.y + box.height - inset],
      [box.x + box.width - inset, box.y + box.height - inset],
      [box.x + box.width / 2, box.y + box.height / 2],
    ];
    for (const [cssX, cssY] of corners) {
      const shot = { x: Math.round(cssX / scale), y: Math.round(cssY / scale) };
      const colour = screenshot.pixel(shot.x, shot.y).slice(0, 3);
      const distance = Math.max(...colour.map((channel, index) => Math.abs(channel - TARGET_RGB[index])));
      expect(
        distance,
        `screenshot pixel ${shot.x},${shot.y} is ${colour.join(',')} at DPR ${deviceScaleFactor} zoom ${zoom}`,
      ).toBeLessThanOrEqual(8);
      const point = screenshotToViewportCss(shot, scale);
      const reply = await agent.send(tabId, {
        type: 'page/act',
        action: 'click',
        target: { kind: 'point', ...point },
        expected: expectationFor(observation, target, target),
        waitFor: { kind: 'url', pattern: 'coordinates', mode: 'includes', timeoutMs: 1000 },
      });
      expect(reply, `DPR ${deviceScaleFactor} zoom ${zoom} point ${JSON.stringify(point)}`).toMatchObject({
        ok: true,
        hit: { name: 'Target' },
      });
    }
    const hits = await page.evaluate(() => (window as unknown as { hits: { onTarget: boolean }[] }).hits);
    expect(hits.map((hit) => hit.onTarget)).toEqual([true, true, true, true, true]);
    results.push(
      `DPR ${deviceScaleFactor} zoom ${zoom}: screenshot ${screenshot.width}×${screenshot.height}, ${scale.toFixed(4)} CSS px per screenshot px, 5/5 on target (viewport ${observation.viewport.width}×${observation.viewport.height} CSS px, devicePixelRatio ${observation.viewport.devicePixelRatio.toFixed(2)})`,
    );
  }
  for (const line of results) console.log(`coordinates: ${line}`);
  const moved = await agent.observe(tabId);
  await page.evaluate(() => scrollBy(0, 40));
  const box = moved.refs[refOf(moved, 'button', 'Target')].box;
  const stale = await agent.send(tabId, {
    type: 'page/act',
    action: 'click',
    target: { kind: 'point', x: box.x + 10, y: box.y + 10 },
    expected: expectationFor(moved, refOf(moved, 'button', 'Target'), refOf(moved, 'button', 'Target')),
  });
  expect(stale).toMatchObject({ ok: false, code: 'STALE_OBSERVATION' });
  await page.close();
});
