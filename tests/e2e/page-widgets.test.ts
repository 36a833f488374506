import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { PageActResult, PageObservationData, PageRequest } from '@/lib/protocol/page-wire';
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { marksFor } from '@/lib/page-observation/set-of-marks';
import { decodePng } from '../support/decode-png';
import { startPageServers, type PageServers } from '../support/static-page-server';
import { expectationFor, launchPageAgent, refOf, type PageAgentSession } from './page-agent-harness';

/*
 * More of the page in real Chromium: drag and drop (HTML5 and pointer-driven), comboboxes and listboxes, a date
 * field, a hover menu, key combinations and scrolling into view, through the built content script and the page wire.
 */
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

type ActFields = Omit<Extract<PageRequest, { type: 'page/act' }>, 'type' | 'expected' | 'target'>;

async function act(
  tabId: number,
  observation: PageObservationData,
  ref: string | undefined,
  fields: ActFields,
): Promise<PageActResult> {
  const reply = await agent.send(tabId, {
    type: 'page/act',
    expected: expectationFor(observation, ref),
    ...(ref ? { target: { kind: 'ref', ref } } : {}),
    ...fields,
  });
  if (reply.type !== 'page/act-result') throw new Error(JSON.stringify(reply));
  return reply;
}

/** The drop target as the runtime sends it: its ref and what the observation said of it. */
function dropOn(observation: PageObservationData, ref: string) {
  const { role, name } = observation.refs[ref];
  return { ref, role, name };
}

/** What the harness worker offers (tests/e2e/page-agent-harness.ts). */
interface Harness {
  windowOf(tabId: number): Promise<number>;
  capture(windowId: number): Promise<string>;
}

const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? '');

describe('page agent on widgets', () => {
  it('drags a card into a drop zone with HTML5 drag and drop, its DataTransfer read by the page', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/drag.html`);
    const observation = await agent.observe(tabId);
    const card = refOf(observation, 'generic', 'Write report');
    expect(observation.snapshot).toContain(`- generic "Write report" [clickable] [ref=${card}]`);
    const done = refOf(observation, 'region', 'Done');
    const result = await act(tabId, observation, card, { action: 'drag', to: dropOn(observation, done) });
    expect(result).toMatchObject({ ok: true, hit: { name: 'Write report' } });
    expect(await text(page, '#status')).toBe('done=write knob=0');
    await page.close();
  });

  it('drags a pointer-driven knob onto its goal: pointerdown, moves, pointerup', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/drag.html`);
    const observation = await agent.observe(tabId);
    const knob = refOf(observation, 'slider', 'Knob');
    const goal = refOf(observation, 'region', 'Goal');
    const result = await act(tabId, observation, knob, { action: 'drag', to: dropOn(observation, goal) });
    expect(result).toMatchObject({ ok: true });
    expect(await text(page, '#status')).toBe('done=none knob=goal');
    await page.close();
  });

  it('refuses a drag whose drop target changed since the observation, and nothing moves', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/drag.html`);
    const observation = await agent.observe(tabId);
    const card = refOf(observation, 'generic', 'Write report');
    const done = refOf(observation, 'region', 'Done');
    await page.$eval('#done', (zone) => zone.setAttribute('aria-label', 'Archive'));
    const result = await act(tabId, observation, card, { action: 'drag', to: dropOn(observation, done) });
    expect(result, JSON.stringify(result)).toMatchObject({ ok: false, code: 'STALE_OBSERVATION' });
    expect(await text(page, '#status')).toBe('done=none knob=0');
    await page.close();
  });

  it('shows combobox, listbox and option roles with their state, and picks from each by label', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/combobox.html`);
    const first = await agent.observe(tabId);
    const city = refOf(first, 'combobox', 'City');
    expect(first.snapshot).toContain(`- combobox "City" [ref=${city}]`);
    expect(first.snapshot).toMatch(/- listbox "Meal" \[ref=e\d+\]:/);
    expect(first.snapshot).toMatch(/- option "Standard" \[selected\] \[ref=e\d+\]/);
    // An editable combobox: its label is typed, the suggestions arrive later, the option is clicked.
    expect(await act(tabId, first, city, { action: 'select', option: 'Prague' })).toMatchObject({ ok: true });
    // A select-only combobox: clicked open, then its option clicked.
    const second = await agent.observe(tabId);
    const seat = refOf(second, 'combobox', 'Seat');
    expect(second.snapshot).toContain(`- combobox "Seat" [ref=${seat}]`);
    expect(await act(tabId, second, seat, { action: 'select', option: 'Aisle' })).toMatchObject({ ok: true });
    const third = await agent.observe(tabId);
    const meal = refOf(third, 'listbox', 'Meal');
    expect(await act(tabId, third, meal, { action: 'select', option: 'Vegan' })).toMatchObject({ ok: true });
    const date = refOf(third, 'textbox', 'Date');
    expect(await act(tabId, third, date, { action: 'type', text: '2026-12-24' })).toMatchObject({ ok: true });
    expect(await text(page, '#status')).toBe('city=Prague seat=Aisle meal=Vegan date=2026-12-24');
    const fourth = await agent.observe(tabId);
    expect(fourth.snapshot).toMatch(/- option "Vegan" \[selected\] \[ref=e\d+\]/);
    await page.close();
  });

  it('opens a combobox, shows it expanded, and names the options it has when the wanted one is missing', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/combobox.html`);
    const first = await agent.observe(tabId);
    const seat = refOf(first, 'combobox', 'Seat');
    const missing = await act(tabId, first, seat, { action: 'select', option: 'Cockpit' });
    expect(missing).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      reason: 'No option "Cockpit"; the list shows "Window", "Aisle".',
    });
    const second = await agent.observe(tabId);
    expect(second.snapshot).toContain(`- combobox "Seat" [expanded] [ref=${seat}]`);
    expect(second.snapshot).toMatch(/- option "Window" \[ref=e\d+\]/);
    await page.close();
  });

  it('hovers a menu open through its item (mouseenter on the ancestor) and clicks the submenu item', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/hover-menu.html`);
    const first = await agent.observe(tabId);
    expect(first.snapshot).not.toContain('Laptops');
    expect(await act(tabId, first, refOf(first, 'link', 'Products'), { action: 'hover' })).toMatchObject({ ok: true });
    const second = await agent.observe(tabId);
    expect(second.snapshot).toMatch(/- link "Products" \[expanded\] \[ref=e\d+\]/);
    const laptops = refOf(second, 'menuitem', 'Laptops');
    expect(await act(tabId, second, laptops, { action: 'click' })).toMatchObject({ ok: true });
    expect(await text(page, '#status')).toBe('opened=1 chosen=Laptops');
    // Moving on to another link leaves the item: the menu closes, as under a real pointer.
    const third = await agent.observe(tabId);
    await act(tabId, third, refOf(third, 'link', 'About'), { action: 'hover' });
    expect(await page.$eval('#products-menu', (menu) => (menu as HTMLElement).hidden)).toBe(true);
    await page.close();
  });

  it('presses key combinations: Control+A selects all, Control+K reaches the page, Shift+Tab moves back', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/keys.html`);
    const first = await agent.observe(tabId);
    const note = refOf(first, 'textbox', 'Note');
    await act(tabId, first, note, { action: 'focus' });
    expect(await act(tabId, first, note, { action: 'press', key: 'Control+A' })).toMatchObject({ ok: true });
    expect(await text(page, '#status')).toBe('palette=closed selected=11 focus=note saved=0');
    expect(await page.$eval('#note', (area) => (area as HTMLTextAreaElement).value)).toBe('first draft');
    await act(tabId, first, note, { action: 'press', key: 'Control+S' });
    await act(tabId, first, note, { action: 'press', key: 'Control+K' });
    expect(await text(page, '#status')).toBe('palette=open selected=11 focus=command saved=1');
    const second = await agent.observe(tabId);
    await act(tabId, second, undefined, { action: 'press', key: 'Escape' });
    const title = refOf(second, 'textbox', 'Title');
    await act(tabId, second, title, { action: 'focus' });
    await act(tabId, second, undefined, { action: 'press', key: 'Shift+Tab' });
    expect(await text(page, '#status')).toBe('palette=closed selected=11 focus=note saved=1');
    await page.close();
  });

  it('scrolls an element into view before acting on it, and scrolls a box to bring its last line in', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/scroll.html`);
    const first = await agent.observe(tabId);
    const terms = refOf(first, 'region', 'Terms text');
    await act(tabId, first, terms, { action: 'scroll', deltaY: 2000 });
    const last = await page.$eval('#last', (line) => {
      const box = line.getBoundingClientRect();
      const frame = line.parentElement!.getBoundingClientRect();
      return box.top >= frame.top && box.bottom <= frame.bottom + 1;
    });
    expect(last).toBe(true);
    const second = await agent.observe(tabId);
    expect(await act(tabId, second, refOf(second, 'checkbox', 'I agree'), { action: 'check' })).toMatchObject({
      ok: true,
    });
    // Only the button's top 10 px show at the bottom edge: it is brought wholly into view before the click.
    await page.evaluate(() => {
      const button = document.getElementById('accept')!;
      scrollBy(0, button.getBoundingClientRect().top - innerHeight + 10);
    });
    const third = await agent.observe(tabId);
    expect(await act(tabId, third, refOf(third, 'button', 'Accept terms'), { action: 'click' })).toMatchObject({
      ok: true,
    });
    expect(await text(page, '#status')).toBe('accepted=yes agreed=yes');
    await page.close();
  });

  it('Set-of-Marks: numbered boxes drawn on a copy of the real capture over the refs in view, the page untouched', async () => {
    const { page, tabId } = await agent.open(`${servers.origin}/form.html`);
    await page.bringToFront();
    const observation = await agent.observe(tabId);
    const marks = marksFor(observation.refs, observation.viewport);
    expect(marks.map((mark) => observation.refs[mark.ref].role)).not.toContain('form');
    const windowId = await agent.worker.evaluate((id) => (self as unknown as Harness).windowOf(id), tabId);
    const dataUrl = await agent.worker.evaluate((id) => (self as unknown as Harness).capture(id), windowId);
    // The runtime's drawing code, bundled as the extension bundles it, run in Chromium on the capture.
    const bundled = await build({
      entryPoints: [resolve(import.meta.dirname, '../../lib/page-observation/draw-marks.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'setOfMarks',
    });
    const elementsBefore = await page.$$eval('*', (all) => all.length);
    const marked = await page.evaluate(
      async (code, png, wanted, width) => {
        const draw = new Function(`${code}; return setOfMarks.drawMarks;`)() as (
          bytes: Uint8Array,
          marks: unknown,
          viewportWidth: number,
        ) => Promise<Uint8Array>;
        const bytes = Uint8Array.from(atob(png.split(',')[1]), (character) => character.charCodeAt(0));
        return [...(await draw(bytes, wanted, width))];
      },
      bundled.outputFiles[0].text,
      dataUrl,
      marks,
      observation.viewport.width,
    );
    expect(await page.$$eval('*', (all) => all.length)).toBe(elementsBefore);
    const plain = decodePng(Buffer.from(dataUrl.split(',')[1], 'base64'));
    const drawn = decodePng(Uint8Array.from(marked));
    expect([drawn.width, drawn.height]).toEqual([plain.width, plain.height]);
    const scale = plain.width / observation.viewport.width;
    // The left edge of mark 1 is outlined in the first mark colour (#e6194b), the same point unmarked is not.
    const first = marks[0].box;
    const edge = [Math.round(first.x * scale), Math.round((first.y + first.height / 2) * scale)] as const;
    expect(drawn.pixel(...edge).slice(0, 3)).toEqual([230, 25, 75]);
    expect(plain.pixel(...edge).slice(0, 3)).not.toEqual([230, 25, 75]);
    await page.close();
  });
});
