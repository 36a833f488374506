import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { Script } from '../../scripts/scripted-model-server/script';
import { BROKEN_CANVAS_PATHS, BROKEN_CANVAS_TARGET, CANVAS_TARGET } from '../support/authored-target-fixture';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  readStoredLog,
  sendMessage,
  type ExtensionSession,
} from './extension-harness';
import { openPopup } from './popup-driver';
import { artifactFrame, stateInside } from './artifact-frame';

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

type ToolResult = Record<string, unknown>;

/** Every tool result the model got in the newest request, in order. */
function toolResults(server: ScriptedModelServer): ToolResult[] {
  const body = server.requests.at(-1)!.body as ChatRequestBody;
  return body.messages
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(String(message.content)) as ToolResult);
}

/** A turn whose steps are these tool calls, one per step, then a closing text. */
function turnOf(calls: { name: string; arguments: unknown }[]): Script['turns'][number] {
  return { steps: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }] } as Script['turns'][number];
}

/** Turns are picked by the number of user messages: earlier turns are placeholders that were already played. */
function scriptTurn(server: ScriptedModelServer, index: number, turn: Script['turns'][number]): void {
  const turns = Array.from({ length: index }, () => ({ steps: [{ text: 'earlier' }] }) as Script['turns'][number]);
  server.setScript({ turns: [...turns, turn] } as Script);
}

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

/** For the README: the stage with the authored target beside the panel that made it, as one picture. */
async function screenshotStageBesidePanel(session: ExtensionSession, panel: Page): Promise<void> {
  const stage = await session.stagePage();
  await stage.setViewport({ width: 720, height: 720 });
  await stage.bringToFront();
  await new Promise((done) => setTimeout(done, 300));
  const stageShot = await stage.screenshot({ encoding: 'base64' });
  await panel.setViewport({ width: 400, height: 720 });
  await panel.bringToFront();
  await panel.evaluate(() => document.fonts.ready);
  const panelShot = await panel.screenshot({ encoding: 'base64' });
  const sheet = await session.browser.newPage();
  await sheet.setViewport({ width: 1124, height: 720 });
  await sheet.setContent(
    `<body style="margin:0;display:flex;gap:4px;background:#888"><img src="data:image/png;base64,${stageShot}"><img src="data:image/png;base64,${panelShot}"></body>`,
  );
  mkdirSync(SCREENSHOTS, { recursive: true });
  await sheet.screenshot({ path: resolve(SCREENSHOTS, 'authored-target.png') as `${string}.png` });
  await sheet.close();
}

describe('model-authored targets in Chromium', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let turns = 0;

  async function play(calls: { name: string; arguments: unknown }[], text: string): Promise<ToolResult[]> {
    scriptTurn(server, turns, turnOf(calls));
    turns += 1;
    await panel.bringToFront();
    const started = performance.now();
    await sendMessage(panel, text);
    expect(await waitForLastTurnEnd(panel, text)).toBe('completed');
    console.log(`[authored targets] turn "${text}" took ${Math.round(performance.now() - started)} ms`);
    return toolResults(server).slice(-calls.length);
  }

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    panel = await session.openPanel();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  beforeEach(() => server.clearRequests());

  it('creates a canvas app, drives it with setParameters, updates it to v2, refuses a stale update, restores v1 from the popup', async () => {
    const started = performance.now();
    const [created] = await play([{ name: 'createTarget', arguments: CANVAS_TARGET }], 'Make an orbit sketch.');
    expect(created).toMatchObject({ ok: true, version: 1, state: 'ready' });
    const targetId = String(created!.targetId);

    const [listed, opened, applied] = await play(
      [
        { name: 'listTargets', arguments: {} },
        { name: 'openTarget', arguments: { targetId } },
        {
          name: 'setParameters',
          arguments: {
            changes: [
              { param: 'radius', value: 90 },
              { param: 'speed', value: 45 },
              { param: 'tint', value: '#ff8800' },
            ],
          },
        },
      ],
      'Open it and set radius 90 px, 45 rpm, orange.',
    );
    expect((listed!.targets as ToolResult[]).find((target) => target.id === targetId)).toMatchObject({
      madeInThisConversation: true,
      version: 1,
    });
    expect(opened).toMatchObject({ ok: true, targetId });
    expect(applied).toMatchObject({ ok: true, applied: { radius: 90, speed: 45, tint: '#ff8800' } });
    const frame = await artifactFrame(session, 'v1');
    expect(await stateInside(frame)).toEqual({ radius: 90, speed: 45, tint: '#ff8800' });
    expect(await frame.evaluate(() => window.origin)).toBe('null');

    const [updated, stale, reopened, parameters] = await play(
      [
        {
          name: 'updateTarget',
          arguments: {
            targetId,
            baseVersion: 1,
            edits: [{ part: 'script', find: "var label = 'v1';", replace: "var label = 'v2';" }],
          },
        },
        { name: 'updateTarget', arguments: { targetId, baseVersion: 1, html: '<p>made against v1</p>' } },
        { name: 'openTarget', arguments: { targetId } },
        { name: 'getParameters', arguments: {} },
      ],
      'Label it v2.',
    );
    expect(updated).toMatchObject({ ok: true, version: 2, supersedes: 1 });
    expect(stale).toMatchObject({ ok: false, code: 'VERSION_CONFLICT', baseVersion: 1, currentVersion: 2 });
    expect(reopened).toMatchObject({ ok: true });
    // Values carry over to the new version for parameters of the same name and type.
    expect(parameters).toMatchObject({
      ok: true,
      parameters: { orbit: { radius: { value: 90, unit: 'px' }, speed: { value: 45, unit: 'rpm' } } },
    });
    const second = await artifactFrame(session, 'v2');
    expect(await stateInside(second)).toEqual({ radius: 90, speed: 45, tint: '#ff8800' });
    expect(await second.evaluate(() => document.body.textContent)).not.toContain('made against v1');

    const popup = await openPopup(session);
    const item = `li[data-target-id="${targetId}"]`;
    await popup.waitForSelector(`${item} .authored-badge`);
    expect(await popup.$eval(`${item} .authored-badge`, (badge) => badge.textContent)).toContain('v2');

    // Open v1 to look at it: its code runs in the frame as a preview, v2 stays current, the tools refuse to drive it.
    const previewStarted = performance.now();
    await popup.click(`${item} button[data-open-version="1"]`);
    const stage = await session.stagePage();
    await stage.waitForFunction(
      () =>
        document.querySelector('#target-title')?.textContent?.includes('v1 (superseded) · made in this conversation'),
      { timeout: 10_000, polling: 50 },
    );
    const preview = await artifactFrame(session, 'v1');
    expect(await preview.evaluate(() => document.getElementById('readout')?.textContent)).toMatch(/^v1\b/);
    const previewState = await stateInside(preview);
    expect(await popup.$eval(`${item} .authored-badge`, (badge) => badge.textContent)).toContain('v2');
    const [refused, listedDuringPreview] = await play(
      [
        { name: 'getParameters', arguments: {} },
        { name: 'listTargets', arguments: {} },
      ],
      'What are its values now?',
    );
    expect(refused).toMatchObject({ ok: false });
    expect(String(refused!.error)).toContain(`version 1 of "${targetId}" (superseded)`);
    expect(String(refused!.error)).toContain(`openTarget("${targetId}")`);
    expect((listedDuringPreview!.targets as ToolResult[]).find((target) => target.id === targetId)).toMatchObject({
      version: 2,
    });
    expect(await stateInside(preview)).toEqual(previewState);
    console.log(
      `[authored targets] open v1 as preview: ${Math.round(performance.now() - previewStarted)} ms (with one refused turn), values in v1's frame ${JSON.stringify(previewState)}`,
    );

    await popup.bringToFront();
    await popup.click(`${item} button[data-restore-version="1"]`);
    await popup.waitForFunction(
      (selector) => document.querySelector(`${selector} .authored-badge`)?.textContent?.includes('v3'),
      { timeout: 10_000, polling: 50 },
      item,
    );
    const restored = await artifactFrame(session, 'v1');
    expect(await stateInside(restored)).toEqual({ radius: 90, speed: 45, tint: '#ff8800' });
    await popup.close();
    await screenshotStageBesidePanel(session, panel);
    console.log(`[authored targets] acceptance 1 took ${Math.round(performance.now() - started)} ms`);
  });

  it('a create with three planted mistakes returns all three paths; the corrected call succeeds', async () => {
    const [rejected, corrected] = await play(
      [
        { name: 'createTarget', arguments: BROKEN_CANVAS_TARGET },
        { name: 'createTarget', arguments: CANVAS_TARGET },
      ],
      'Make another one.',
    );
    expect(rejected).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', state: 'rejected' });
    const problems = rejected!.problems as { code: string; path: string; message: string }[];
    expect(problems.map((problem) => problem.path).sort()).toEqual(BROKEN_CANVAS_PATHS);
    expect(problems.every((problem) => problem.code === 'VALIDATION_FAILED' && problem.message.length > 0)).toBe(true);
    expect(corrected).toMatchObject({ ok: true, state: 'ready', version: 1 });
    const log = await readStoredLog(panel, await currentSessionId(panel));
    const types = log.map((row) => row.type).filter((type) => type.startsWith('artifact/'));
    expect(types).toContain('artifact/rejected');
    console.log(
      `[authored targets] rejected create: problems=${problems.length} paths=${problems.map((problem) => problem.path).join(',')}`,
    );
  });

  it('a hostile authored target escapes by none of 33 probes; network is open only for the granted origin while granted', async () => {
    const hits: string[] = [];
    const collector: Server = createServer((request, response) => {
      hits.push(`${request.headers.host} ${request.url}`);
      response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
      response.end('reached');
    });
    collector.on('upgrade', (request, socket) => {
      hits.push(`${request.headers.host} upgrade ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((done) => collector.listen(0, '127.0.0.1', done));
    const port = (collector.address() as AddressInfo).port;
    const collectorUrl = `http://127.0.0.1:${port}`;
    try {
      const hostile = {
        title: 'Hostile probe',
        description: 'Tries to leave its sandbox.',
        params: {
          probe: {
            collector: { type: 'string', maxLength: 200, value: '' },
            run: { type: 'integer', min: 0, max: 1000, value: 0 },
          },
        },
        html: '<pre id="log">probing…</pre>',
        script: HOSTILE_SCRIPT,
        permissions: { network: [collectorUrl] },
      };
      const [created] = await play([{ name: 'createTarget', arguments: hostile }], 'Make the probe.');
      expect(created).toMatchObject({ ok: true, state: 'ready' });
      const targetId = String(created!.targetId);
      await play([{ name: 'openTarget', arguments: { targetId } }], 'Open the probe.');
      const frame = await artifactFrame(session);
      await frame.evaluate(() => {
        const view = window as unknown as { violations: number };
        view.violations = 0;
        document.addEventListener('securitypolicyviolation', () => (view.violations += 1));
      });
      await play([{ name: 'setParameter', arguments: { param: 'collector', value: collectorUrl } }], 'Probe it.');
      await frame.waitForFunction(
        (count) => Object.keys((window as unknown as { hostileResults(): object }).hostileResults()).length >= count,
        { timeout: 15_000, polling: 100 },
        PROBE_COUNT,
      );
      const violations = await frame.evaluate(() => (window as unknown as { violations: number }).violations);
      const sessionId = await currentSessionId(panel);
      const warningsStored = async () =>
        (await readStoredLog(panel, sessionId)).filter((row) => row.type === 'notify/security-warning').length;
      // Every violation the frame saw reaches the user as a security warning (the stage passes up to 50 per opening).
      const deadline = Date.now() + 15_000;
      while ((await warningsStored()) < Math.min(violations, 50) && Date.now() < deadline)
        await new Promise((done) => setTimeout(done, 200));
      const [afterProbes] = await play([{ name: 'getParameters', arguments: {} }], 'What did it do?');
      const reported = (afterProbes!.targetErrors as string[] | undefined) ?? [];
      const outcome = await frame.evaluate(() =>
        (window as unknown as { hostileResults(): Record<string, { escaped: boolean }> }).hostileResults(),
      );
      const escapes = Object.entries(outcome).filter(([, result]) => result.escaped);
      const warnings = await warningsStored();
      console.log(
        `[authored targets] hostile: probes=${Object.keys(outcome).length} escapes=${escapes.length} requests-to-collector=${hits.length} csp-violations=${violations} security-warnings=${warnings} reported-to-model=${reported.length}`,
      );
      expect(Object.keys(outcome)).toHaveLength(PROBE_COUNT);
      expect(escapes).toEqual([]);
      expect(hits).toEqual([]);
      expect(violations).toBeGreaterThanOrEqual(12);
      expect(warnings).toBeGreaterThanOrEqual(Math.min(violations, 50));
      expect(reported.some((message) => message.includes('content security policy'))).toBe(true);

      // The user grants network for the collector's origin: the target reloads and reaches exactly that origin.
      const popup = await openPopup(session);
      const grantButton = `li[data-target-id="${targetId}"] button[data-grant="network: ${collectorUrl}"]`;
      await popup.waitForSelector(grantButton);
      await popup.click(grantButton);
      await popup.waitForFunction(
        (selector) => document.querySelector(selector)?.textContent === 'Revoke',
        { timeout: 10_000, polling: 50 },
        grantButton,
      );
      const stage = await session.stagePage();
      await stage.waitForFunction(
        (origin) => document.querySelector('#target-grants')?.textContent?.includes(origin),
        { timeout: 10_000, polling: 50 },
        collectorUrl,
      );
      const granted = await artifactFrame(session);
      const reach = (frameOf: Frame, url: string) =>
        frameOf.evaluate(
          (address) =>
            fetch(address).then(
              (response) => response.text(),
              () => 'blocked',
            ),
          url,
        );
      expect(await reach(granted, `${collectorUrl}/granted`)).toBe('reached');
      expect(await reach(granted, `http://localhost:${port}/other-origin`)).toBe('blocked');
      expect(await reach(granted, `http://127.0.0.1:${port + 1}/other-port`)).toBe('blocked');
      expect(hits.every((hit) => hit.startsWith(`127.0.0.1:${port} `))).toBe(true);
      expect(hits).toContain(`127.0.0.1:${port} /granted`);
      const hitsWhileGranted = hits.length;

      // Revoked: it reloads without the permission, and the collector hears nothing more.
      await popup.bringToFront();
      await popup.click(grantButton);
      await popup.waitForFunction(
        (selector) => document.querySelector(selector)?.textContent === 'Grant',
        { timeout: 10_000, polling: 50 },
        grantButton,
      );
      await stage.waitForFunction(() => !document.querySelector('#target-grants')?.textContent, {
        timeout: 10_000,
        polling: 50,
      });
      const revoked = await artifactFrame(session);
      expect(await reach(revoked, `${collectorUrl}/after-revoke`)).toBe('blocked');
      expect(hits.length).toBe(hitsWhileGranted);
      console.log(
        `[authored targets] grant: requests while granted=${hitsWhileGranted} (all to ${collectorUrl}: ${hits.map((hit) => hit.split(' ')[1]).join(',')}), other origin and port blocked, after revoke=${hits.length - hitsWhileGranted}`,
      );
      await popup.close();
    } finally {
      // The relayed fetches leave keep-alive connections open, which close() would wait for.
      collector.closeAllConnections();
      await new Promise((done) => collector.close(done));
    }
  });
});

const HOSTILE_SCRIPT = readFileSync(resolve(import.meta.dirname, '../targets/hostile/probes.js'), 'utf8');
/** Every probe in tests/targets/hostile/probes.js. */
const PROBE_COUNT = 33;
const SCREENSHOTS = resolve(import.meta.dirname, '../screenshots');
