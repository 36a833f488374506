import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { xssCorpus } from './xss-corpus';
import type { EveryPrefixResult } from './xss-every-prefix-page';
import { startOneCharacterStreamServer, type OneCharacterStreamServer } from './xss-one-character-stream-server';
import { installXssWatch, type XssWatch } from './xss-watch';

const root = resolve(import.meta.dirname, '../..');
/** A host no page may contact: every resource a payload could load lives here. */
const COLLECTOR = 'http://xss-collector.test';
const corpus = xssCorpus(COLLECTOR);

async function bundleEveryPrefixPage(): Promise<string> {
  const result = await build({
    entryPoints: [resolve(import.meta.dirname, 'xss-every-prefix-page.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    alias: { '@': root },
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return result.outputFiles[0].text;
}

/** Serves the page with a report-only policy: nothing is blocked, so a payload could run, but any attempt is reported. */
async function servePage(script: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    if (request.url === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(script);
      return;
    }
    if (request.url === '/documents.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(corpus));
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/html',
      'content-security-policy-report-only': "default-src 'self'; style-src 'self' 'unsafe-inline'",
    });
    response.end(
      '<!doctype html><meta charset="utf-8"><title>xss corpus</title><link rel="icon" href="data:,"><script type="module" src="/page.js"></script>',
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

function totalCharacters(): number {
  return corpus.reduce((sum, document) => sum + Array.from(document.markdown).length, 0);
}

describe('the markdown XSS corpus runs nothing and loads nothing at any cut point', () => {
  it('renders every prefix of every document through MarkdownView, streaming and final, in Chromium', async () => {
    const script = await bundleEveryPrefixPage();
    const { server, origin } = await servePage(script);
    const profile = mkdtempSync(join(tmpdir(), 'splitbrain-xss-'));
    const browser: Browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      userDataDir: profile,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const allowed = new Set([`${origin}/`, `${origin}/page.js`, `${origin}/documents.json`]);
      const disallowed: string[] = [];
      page.on('request', (request) => {
        if (!allowed.has(request.url())) disallowed.push(request.url());
      });
      let navigations = 0;
      page.on('framenavigated', () => (navigations += 1));
      const pagesBefore = (await browser.pages()).length;
      await page.goto(`${origin}/`);
      const navigationsAtLoad = navigations;
      await page.waitForFunction(
        () => window.__everyPrefixResult !== undefined || window.__everyPrefixError !== undefined,
        { timeout: 240_000, polling: 200 },
      );
      expect(await page.evaluate(() => window.__everyPrefixError)).toBeUndefined();
      await new Promise((done) => setTimeout(done, 1000));
      const result = (await page.evaluate(() => window.__everyPrefixResult)) as EveryPrefixResult;
      const watch = (await page.evaluate(() => window.__xssWatch)) as XssWatch;
      const popups = (await browser.pages()).length - pagesBefore;
      console.log(
        `[xss corpus, every prefix] positive control caught: executed=${result.control.executed} CSP=${result.control.cspViolations} unsafe DOM=${result.control.violations}; documents=${result.documents} characters=${totalCharacters()} prefixes rendered: streaming=${result.streamingRenders} final=${result.finalRenders} DOM scans=${watch.scans} ` +
          `scripts executed=${watch.executed.length} CSP violations=${watch.cspViolations.length} unsafe DOM=${watch.violations.length} requests to disallowed hosts=${disallowed.length} navigations=${navigations - navigationsAtLoad} popups=${popups}`,
      );
      expect(result.control.executed).toBe(1);
      expect(result.control.cspViolations).toBeGreaterThan(0);
      expect(result.control.violations).toBeGreaterThan(0);
      expect(result.documents).toBe(corpus.length);
      expect(result.streamingRenders).toBe(totalCharacters());
      expect(result.finalRenders).toBe(totalCharacters());
      expect(watch.scans).toBe(2 * totalCharacters());
      expect(watch.executed).toEqual([]);
      expect(watch.cspViolations).toEqual([]);
      expect(watch.violations).toEqual([]);
      expect(disallowed).toEqual([]);
      expect(navigations - navigationsAtLoad).toBe(0);
      expect(popups).toBe(0);
    } finally {
      await browser.close();
      server.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 300_000);

  describe('streamed one character per frame into the real side panel', () => {
    let stream: OneCharacterStreamServer;
    let session: ExtensionSession;

    beforeAll(async () => {
      stream = await startOneCharacterStreamServer(4);
      session = await launchExtension(process.env.SPLITBRAIN_TEST_BUILD);
      await configureEndpoint(session, stream.url);
    });

    afterAll(async () => {
      await session?.close();
      await stream?.close();
    });

    it('shows every document as it streams without running or loading anything', async () => {
      const panel: Page = await session.openPanel();
      const extensionOrigin = `chrome-extension://${session.extensionId}`;
      const disallowed: string[] = [];
      panel.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(`${extensionOrigin}/`) && !url.startsWith(`${stream.origin}/`)) disallowed.push(url);
      });
      const popups: string[] = [];
      session.browser.on('targetcreated', (target) => {
        if (target.type() === 'page') popups.push(target.url());
      });
      await panel.evaluate(installXssWatch, '.message-list');
      let streamedTexts = 0;
      for (const [index, entry] of corpus.entries()) {
        stream.setAnswer(entry.markdown);
        // A new conversation per document: the list is virtualized, and each document starts from a clean block state.
        if (index > 0) await panel.click('button::-p-text(New chat)');
        await panel.waitForFunction(() => document.querySelectorAll('article.turn').length === 0, { polling: 100 });
        await sendMessage(panel, `Document ${index}`);
        expect(await waitForTurnEnd(panel, 0, 60_000), entry.name).toBe('completed');
        streamedTexts += 1;
      }
      await new Promise((done) => setTimeout(done, 500));
      const watch = (await panel.evaluate(() => window.__xssWatch)) as XssWatch;
      console.log(
        `[xss corpus, side panel] documents=${corpus.length} characters streamed=${totalCharacters()} (one per SSE frame) DOM scans=${watch.scans} ` +
          `scripts executed=${watch.executed.length} CSP violations=${watch.cspViolations.length} unsafe DOM=${watch.violations.length} requests to disallowed hosts=${disallowed.length} popups=${popups.length}`,
      );
      expect(streamedTexts).toBe(corpus.length);
      expect(watch.scans).toBeGreaterThan(corpus.length * 10);
      expect(watch.executed).toEqual([]);
      expect(watch.cspViolations).toEqual([]);
      expect(watch.violations).toEqual([]);
      expect(disallowed).toEqual([]);
      expect(popups).toEqual([]);
      expect(panel.url()).toBe(`${extensionOrigin}/sidepanel.html`);
      await panel.close();
    }, 300_000);
  });
});
