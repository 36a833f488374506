import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { actOn, observe, observationIn, pageTaskResponder, refIn, type PageTaskStep } from '../support/page-task-model';
import { configureEndpoint, launchExtension, type ExtensionSession } from './extension-harness';
import { runTask } from './run-page-task';

const done: PageTaskStep = () => ({ text: 'Done.' });

/*
 * MiniWoB++-style tasks that need more of the page than clicks, through the side panel and the scripted model in
 * Chromium: sort by drag and drop, agree below the fold, book with comboboxes and a listbox.
 */
describe('page tools: widget tasks through the side panel and the scripted model, in Chromium', () => {
  let pages: PageServers;
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;
  let web: Page;
  let task: PageTaskStep[] = [];

  beforeAll(async () => {
    pages = await startPageServers();
    server = await startScriptedModelServer({ respond: pageTaskResponder(() => task) });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    web = await session.browser.newPage();
    await web.goto(`${pages.origin}/drag.html`);
    panel = await session.openPanel();
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    await pages?.close();
  });

  async function openPage(path: string): Promise<void> {
    await web.goto(`${pages.origin}/${path}`);
    await panel.bringToFront();
    await panel.waitForFunction(
      (title) => document.querySelector('.page-line-title')?.textContent === title,
      { timeout: 10_000, polling: 50 },
      await web.title(),
    );
  }

  const dragOnto =
    (role: string, name: string, toRole: string, toName: string): PageTaskStep =>
    (last) =>
      actOn(role, name, 'drag', { toRef: refIn(last, toRole, toName) })(last);

  it('drag-items: moves both tasks to Done and the knob onto its goal, asking before the first drag', async () => {
    await openPage('drag.html');
    task = [
      observe,
      dragOnto('generic', 'Write report', 'region', 'Done'),
      dragOnto('generic', 'Send mail', 'region', 'Done'),
      dragOnto('slider', 'Knob', 'region', 'Goal'),
      done,
    ];
    const { status, asked } = await runTask(panel, 'Move every task to Done and the knob to the goal');
    expect(status).toBe('completed');
    expect(asked[0]).toBe('Drag generic "Write report" onto region "Done" on 127.0.0.1.');
    expect(await web.$eval('#status', (line) => line.textContent)).toBe('done=write+mail knob=goal');
  }, 60_000);

  it('scroll-terms: reads the last line of a scrolled box, then agrees and accepts below the fold', async () => {
    await panel.select('select.page-line-mode', 'allow');
    await openPage('scroll.html');
    let scrolled: unknown;
    task = [
      observe,
      actOn('region', 'Terms text', 'scroll', { deltaY: 2000 }),
      (last) => {
        scrolled = observationIn(last).snapshot;
        return actOn('checkbox', 'I agree', 'check')(last);
      },
      actOn('button', 'Accept terms', 'click'),
      done,
    ];
    expect(await runTask(panel, 'Accept the terms')).toEqual({ status: 'completed', asked: [] });
    expect(String(scrolled)).toContain('The secret word is heron.');
    expect(await web.$eval('#status', (line) => line.textContent)).toBe('accepted=yes agreed=yes');
    expect(await web.evaluate(() => scrollY)).toBeGreaterThan(1000);
  }, 60_000);

  it('book-trip: picks from a suggesting combobox, a select-only combobox and a listbox, and types a date', async () => {
    await openPage('combobox.html');
    task = [
      observe,
      actOn('combobox', 'City', 'select', { option: 'Porto' }),
      actOn('combobox', 'Seat', 'select', { option: 'Window' }),
      actOn('listbox', 'Meal', 'select', { option: 'Vegetarian' }),
      actOn('textbox', 'Date', 'type', { text: '2027-01-15' }),
      done,
    ];
    expect((await runTask(panel, 'Book Porto, window, vegetarian, 15 January 2027')).status).toBe('completed');
    expect(await web.$eval('#status', (line) => line.textContent)).toBe(
      'city=Porto seat=Window meal=Vegetarian date=2027-01-15',
    );
  }, 60_000);
});
