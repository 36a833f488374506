import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { launchExtension, type ExtensionSession } from './extension-harness';

interface ProbeResult {
  escaped: boolean;
  detail: string;
}

/** Every probe in tests/targets/hostile/probes.js; each must report, or it did not run. */
const PROBE_COUNT = 33;

async function manualTool(page: Page, toolName: string, input: unknown): Promise<{ ok: boolean }> {
  return page.evaluate(
    async (name, value) => {
      const runtime = (
        globalThis as unknown as {
          chrome: {
            runtime: { sendMessage(message: unknown): Promise<{ ok: boolean; result: { output: { ok: boolean } } }> };
          };
        }
      ).chrome.runtime;
      const response = await runtime.sendMessage({ type: 'tool/manual', toolName: name, input: value });
      return response.result.output;
    },
    toolName,
    input,
  );
}

/** Adds a frame to the stage page and, running in that frame, posts forged target messages to the stage; returns how many. */
async function postFromAnotherFrame(stage: Page): Promise<number> {
  await stage.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.name = 'impostor';
    document.body.append(frame);
  });
  const impostor = stage.frames().find((candidate) => candidate.name() === 'impostor')!;
  const posted = await impostor.evaluate(() => {
    const messages = [
      { source: 'splitbrain:target', type: 'ready', state: { collector: 'forged-by-another-frame', run: 997 } },
      { source: 'splitbrain:target', type: 'state', payload: { collector: 'forged-by-another-frame', run: 997 } },
      { source: 'splitbrain:target', type: 'error', message: 'forged-by-another-frame' },
    ];
    for (const message of messages) window.parent.postMessage(message, '*');
    return messages.length;
  });
  await stage.evaluate(() => document.querySelector('iframe[name="impostor"]')?.remove());
  await new Promise((resolve) => setTimeout(resolve, 300));
  return posted;
}

describe('a hostile target cannot leave its sandbox', () => {
  let session: ExtensionSession;
  let collector: Server;
  const hits: string[] = [];
  let collectorUrl = '';

  beforeAll(async () => {
    collector = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'image/png' });
      response.end('');
    });
    collector.on('upgrade', (request, socket) => {
      hits.push(`upgrade ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    collectorUrl = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    session = await launchExtension();
  });

  afterAll(async () => {
    await session?.close();
    await new Promise((resolve) => collector?.close(resolve));
  });

  it('fails every probe, reaches no host, and gets no message accepted', async () => {
    const page = await session.browser.newPage();
    await page.goto(`chrome-extension://${session.extensionId}/options.html`);
    // Everything the stage reports about target state reaches the runtime's subscribers: a forged state accepted anywhere would show here.
    await page.evaluate(() => {
      const reported: unknown[] = [];
      (window as unknown as { __reported: unknown[] }).__reported = reported;
      const runtime = (
        globalThis as unknown as {
          chrome: {
            runtime: {
              connect(options: { name: string }): {
                onMessage: { addListener(listener: (message: unknown) => void): void };
              };
            };
          };
        }
      ).chrome.runtime;
      runtime.connect({ name: 'targets' }).onMessage.addListener((message) => reported.push(message));
    });
    expect(await manualTool(page, 'openTarget', { targetId: 'hostile' })).toMatchObject({ ok: true });
    expect(await manualTool(page, 'setParameter', { param: 'collector', value: collectorUrl })).toMatchObject({
      ok: true,
    });
    const frame = await session.targetFrame('hostile');
    const hostile = () =>
      frame.evaluate(() => (window as unknown as { hostileResults(): Record<string, ProbeResult> }).hostileResults());
    const deadline = Date.now() + 10_000;
    while (Object.keys(await hostile()).length < PROBE_COUNT && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const results = await hostile();
    const names = Object.keys(results);
    const escapes = names.filter((name) => results[name].escaped);

    const stage = await session.stagePage();
    // A nested frame of the target gets no document (frame-src 'none'), so the stage's filter is probed directly:
    // a frame of the stage's own origin that is not the hosted target posts forged target messages.
    const forgedFromOtherFrame = await postFromAnotherFrame(stage);

    // What the probes cannot see from inside: the stage, the runtime and the other targets took none of the forged messages.
    const inside = await frame.evaluate(() => {
      const view = window as unknown as {
        hostileNestedPosted?: number;
        SplitbrainBridge: { debug: { applyCount: number; resetCount: number; ignored: number } };
      };
      return { nestedPosted: view.hostileNestedPosted ?? 0, ...view.SplitbrainBridge.debug };
    });
    const parameters = (await manualTool(page, 'getParameters', {})) as unknown as {
      ok: boolean;
      parameters: { probe: { collector: { value: unknown }; run: { value: unknown } } };
    };
    const reported = JSON.stringify(
      await page.evaluate(() => (window as unknown as { __reported: unknown[] }).__reported),
    );
    const stored = JSON.stringify(
      await page.evaluate(() =>
        (
          globalThis as unknown as { chrome: { storage: { local: { get(): Promise<unknown> } } } }
        ).chrome.storage.local.get(),
      ),
    );
    const stageStatus = await stage.$eval('#target-status', (element) => element.textContent ?? '');
    const stageFrames = stage.frames().map((candidate) => candidate.url());
    const extensionOrigin = `chrome-extension://${session.extensionId}`;
    const expectedPages = new Set(['about:blank', `${extensionOrigin}/options.html`, `${extensionOrigin}/stage.html`]);
    const pages = (await session.browser.pages()).map((candidate) => candidate.url());
    const outside = {
      'forged state accepted (targets port)': reported.includes('forged'),
      'forged state stored': stored.includes('forged'),
      'forged stage command obeyed (stage retired or replaced)':
        /no longer driven/.test(stageStatus) ||
        !stageFrames.some((url) => url.includes('/targets/hostile/')) ||
        stageFrames.some((url) => url.includes('forged')),
      'forged apply or reset run in the target':
        inside.applyCount !== 1 || inside.resetCount !== 0 || parameters.parameters.probe.run.value !== 0,
      'window opened or top navigated':
        pages.length !== expectedPages.size || pages.some((url) => !expectedPages.has(url)),
    };
    const outsideEscapes = Object.entries(outside)
      .filter(([, escaped]) => escaped)
      .map(([name]) => name);
    console.log(
      `[hostile target] probes=${names.length} escapes=${escapes.length} checks from outside=${Object.keys(outside).length} escapes seen from outside=${outsideEscapes.length} ` +
        `forged messages posted by a nested target frame=${inside.nestedPosted} (nested frame got a document: ${results['nested frame posts as the target'].escaped}) by another stage frame=${forgedFromOtherFrame} ignored by the bridge=${inside.ignored} requests-to-collector=${hits.length}`,
    );
    expect(names.length).toBe(PROBE_COUNT);
    expect(escapes).toEqual([]);
    expect(outsideEscapes).toEqual([]);
    expect(forgedFromOtherFrame).toBeGreaterThan(0);
    expect(inside.ignored).toBeGreaterThan(0);
    expect(hits).toEqual([]);
    expect(await frame.evaluate(() => window.origin)).toBe('null');
    expect(parameters).toMatchObject({
      ok: true,
      parameters: { probe: { collector: { value: collectorUrl }, run: { value: 0 } } },
    });
    expect(reported).toContain(collectorUrl);
    await page.close();
  });
});
