import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { launchExtension, type ExtensionSession } from './extension-harness';

interface ProbeResult {
  escaped: boolean;
  detail: string;
}

async function manualTool(page: Page, toolName: string, input: unknown): Promise<{ ok: boolean }> {
  return page.evaluate(
    async (name, value) => {
      const runtime = (globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<{ ok: boolean; result: { output: { ok: boolean } } }> } } }).chrome.runtime;
      const response = await runtime.sendMessage({ type: 'tool/manual', toolName: name, input: value });
      return response.result.output;
    },
    toolName,
    input,
  );
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
    expect(await manualTool(page, 'openTarget', { targetId: 'hostile' })).toMatchObject({ ok: true });
    expect(await manualTool(page, 'setParameter', { param: 'collector', value: collectorUrl })).toMatchObject({ ok: true });
    const frame = await session.targetFrame('hostile');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const results = await frame.evaluate(() => (window as unknown as { hostileResults(): Record<string, ProbeResult> }).hostileResults());
    const names = Object.keys(results);
    const escapes = names.filter((name) => results[name].escaped);
    console.log(`[hostile target] probes=${names.length} escapes=${escapes.length} requests-to-collector=${hits.length}`);
    expect(names.length).toBeGreaterThanOrEqual(15);
    expect(escapes).toEqual([]);
    expect(hits).toEqual([]);
    expect(await frame.evaluate(() => window.origin)).toBe('null');
    const stage = await session.stagePage();
    expect(stage.url()).toContain('/stage.html');
    const pages = await session.browser.pages();
    expect(pages.some((candidate) => candidate.url().includes('example.org'))).toBe(false);
    expect(await manualTool(page, 'getParameters', {})).toMatchObject({ ok: true });
    await page.close();
  });
});
