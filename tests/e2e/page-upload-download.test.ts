import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { splitByFence } from '../../lib/page-tools/page-fence';
import { REPORT_PDF, startPageServers, type PageServers } from '../support/static-page-server';
import {
  actOn,
  observationIn,
  observe,
  pageTaskResponder,
  type PageTaskStep,
  type ToolResult,
} from '../support/page-task-model';
import { configureEndpoint, launchExtension, type ExtensionSession } from './extension-harness';
import { runTask } from './run-page-task';

const CSV = 'id,item\n1,Lamp\n2,Desk\n';

/** The ref of the first snapshot line with a ref that contains `text`. */
function refOfLine(result: ToolResult | undefined, text: string): string {
  const snapshot = String(observationIn(result).snapshot);
  const line = snapshot.split('\n').find((candidate) => candidate.includes(text) && candidate.includes('[ref='));
  const ref = line ? /\[ref=(e\d+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`No line with "${text}" and a ref in:\n${snapshot}`);
  return ref;
}

function upload(line: string, file: string): PageTaskStep {
  return (last) => ({
    toolCalls: [
      {
        name: 'uploadFile',
        arguments: { observationId: observationIn(last).observationId, ref: refOfLine(last, line), file },
      },
    ],
  });
}

/** Every step gets the previous result; this one keeps it and goes on with `next`. */
function keep(into: ToolResult[], next: PageTaskStep): PageTaskStep {
  return (last) => {
    if (last) into.push(last);
    return next(last);
  };
}

describe('page tools: uploads into a page and the downloads an action starts, in Chromium', () => {
  let pages: PageServers;
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let web: Page;
  let task: PageTaskStep[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'splitbrain-upload-'));
  const downloads = mkdtempSync(join(tmpdir(), 'splitbrain-downloads-'));

  beforeAll(async () => {
    pages = await startPageServers();
    server = await startScriptedModelServer({ respond: pageTaskResponder(() => task) });
    session = await launchExtension();
    const browserSession = await session.browser.target().createCDPSession();
    await browserSession.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await configureEndpoint(session, server.url);
    web = await session.browser.newPage();
    await web.goto(`${pages.origin}/upload.html`);
    panel = await session.openPanel();
    await panel.waitForFunction(() => document.querySelector('.page-line-title')?.textContent === 'Send a file', {
      timeout: 10_000,
    });
    await panel.select('select.page-line-mode', 'allow');
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  it('puts an attached file into a file input and onto a drop zone; the page reads both back; an unattached file is refused', async () => {
    const path = join(folder, 'orders.csv');
    writeFileSync(path, CSV);
    const input = await panel.$('input[type="file"]');
    await input!.uploadFile(path);
    await panel.waitForFunction(
      () =>
        [...document.querySelectorAll('.attachment-chip')].some(
          (chip) => chip.getAttribute('data-state') === 'ready' && chip.textContent?.includes('orders.csv'),
        ),
      { timeout: 15_000 },
    );
    const results: ToolResult[] = [];
    task = [
      observe,
      upload('Choose a spreadsheet', 'orders.csv'),
      keep(results, upload('Drop a file here', 'orders.csv')),
      keep(results, upload('Drop a file here', 'secret.pdf')),
      keep(results, () => ({ text: 'Uploaded.' })),
    ];
    const { status, asked } = await runTask(panel, 'Send the orders to the page');
    expect(status).toBe('completed');
    const size = Buffer.byteLength(CSV);
    expect(asked).toEqual([
      expect.stringMatching(new RegExp(`^Upload "orders\\.csv" \\(${size} B\\) into .+ on 127\\.0\\.0\\.1\\.$`)),
      `Upload "orders.csv" (${size} B) into button "Drop a file here" on 127.0.0.1.`,
      'Upload "secret.pdf" (not a file attached in this conversation) into button "Drop a file here" on 127.0.0.1.',
    ]);
    const readBack = `orders.csv | ${size} bytes | text/csv | starts with ${JSON.stringify(CSV.slice(0, 16))}`;
    expect(await web.$eval('#input-result', (element) => element.textContent)).toBe(`${readBack} | input,change`);
    expect(await web.$eval('#drop-result', (element) => element.textContent)).toBe(
      `${readBack} | dragenter,dragover,drop`,
    );
    const [intoInput, dropped, refused] = results;
    expect(intoInput).toMatchObject({ ok: true, file: { name: 'orders.csv', size, type: 'text/csv' } });
    expect(dropped).toMatchObject({ ok: true, hit: { tag: 'div' }, file: { name: 'orders.csv' } });
    expect(refused).toMatchObject({ ok: false, code: 'FILE_NOT_ATTACHED' });
  }, 90_000);

  it('lists the download a click started, with its type, never opens it, and removes it on the person’s word', async () => {
    await web.goto(`${pages.origin}/download.html`);
    await panel.waitForFunction(() => document.querySelector('.page-line-title')?.textContent === 'Monthly report', {
      timeout: 10_000,
    });
    const results: ToolResult[] = [];
    task = [
      observe,
      actOn('link', 'Download the report', 'click', {
        waitFor: { condition: 'download-complete', timeoutMs: 15_000 },
      }),
      // The page is still there after a download: an action on it waits as on any page.
      keep(
        results,
        actOn('button', 'Mark as read', 'click', {
          waitFor: { condition: 'text-appears', value: 'Marked as read', timeoutMs: 5000 },
        }),
      ),
      keep(results, () => ({ text: 'Downloaded.' })),
    ];
    const tabsBefore = (await session.browser.pages()).length;
    const { status } = await runTask(panel, 'Download the monthly report');
    expect(status).toBe('completed');
    const [clicked, marked] = results;
    expect(marked).toMatchObject({ ok: true, waited: { met: true } });
    expect(clicked).toMatchObject({
      ok: true,
      downloads: [
        {
          size: REPORT_PDF.byteLength,
          type: 'application/pdf',
          site: pages.origin,
          state: 'complete',
          opened: false,
        },
      ],
    });
    const listed = (clicked.downloads as { name: string }[])[0];
    const marker = /<<PAGE-DATA ([0-9a-f]{32})>>/.exec(listed.name)?.[1] ?? '';
    expect(splitByFence(listed.name, marker).inside).toEqual(['\nreport.pdf\n']);
    // Never opened: no tab shows it, the page stayed where it was, and the file is on disk as the site sent it.
    expect((await session.browser.pages()).length).toBe(tabsBefore);
    expect(web.url()).toBe(`${pages.origin}/download.html`);
    const saved = join(downloads, 'report.pdf');
    expect(readFileSync(saved)).toEqual(REPORT_PDF);

    const row = 'section.tool-card[aria-label="Tool call actOnPage"] .download-row';
    await panel.waitForSelector(row);
    expect(await panel.$eval(`${row} .download-name`, (element) => element.textContent)).toBe('report.pdf');
    expect(await panel.$eval(`${row} .download-type`, (element) => element.textContent)).toBe('application/pdf');
    await panel.$eval(`${row} button:nth-of-type(2)`, (button) => (button as HTMLButtonElement).click());
    await panel.waitForSelector(`${row}[data-choice="removed"]`, { timeout: 10_000 });
    expect(existsSync(saved)).toBe(false);
    const worker = await session.worker();
    const left = await worker.evaluate(async () => {
      const { chrome } = globalThis as unknown as {
        chrome: { downloads: { search(query: object): Promise<unknown[]> } };
      };
      return (await chrome.downloads.search({})).length;
    });
    expect(left).toBe(0);
  }, 90_000);
});
