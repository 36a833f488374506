import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startPageServers } from '../support/static-page-server';
import { actOn, observe, pageTaskResponder, refIn, type PageTaskStep } from '../support/page-task-model';
import { firefoxSuite } from './firefox-suite';
import {
  answerApprovals,
  firstTurnEnd,
  openPageTab,
  openPanelBesidePage,
  sendFromComposer,
  switchToTab,
  turnCount,
  untilPageLineNames,
} from './sidebar-page';

describe('page tools in Firefox ESR', () => {
  const suite = firefoxSuite({
    pages: () => startPageServers(),
    server: () => startScriptedModelServer({ respond: pageTaskResponder(() => task) }),
  });
  let panelUrl: string;
  let task: PageTaskStep[] = [
    observe,
    actOn('textbox', 'Full name', 'type', { text: 'Ada Lovelace' }),
    actOn('button', 'Submit', 'click'),
    () => ({ text: 'Submitted.' }),
  ];

  it('observes the form page and fills and submits it from the sidebar page, each step approved in the panel', async () => {
    const { marionette, base, pages, server } = suite;
    const started = Date.now();
    const formUrl = `${pages.origin}/form.html`;
    // The page tab is active last before the panel's tab: the page tools act on that window's latest web page.
    await openPageTab(marionette, formUrl);
    panelUrl = await openPanelBesidePage(marionette, base, server.url, 'Sign up');
    const turnsBefore = await turnCount(marionette);
    await sendFromComposer(marionette, 'Sign up as Ada Lovelace.');

    const asked = await answerApprovals(marionette, panelUrl, turnsBefore);
    console.log(`[firefox] approval cards: ${JSON.stringify(asked)}`);
    expect(await firstTurnEnd(marionette)).toBe('completed');
    expect(asked).toHaveLength(3);
    expect(asked[0]).toMatch(/^Let Splitbrain read and act on 127\.0\.0\.1\?/);

    // What the model got back: an observation taken in Firefox, then two actions that hit what they named.
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
    const results = messages
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(message.content) as Record<string, unknown>);
    expect(results).toHaveLength(3);
    expect(String(results[0].snapshot)).toMatch(/- textbox "Full name" \[ref=e\d+\]/);
    // The hit's name is page text: it comes inside the fence.
    const hits = results.slice(1).map((result) => {
      const hit = result.hit as { role?: string; tag?: string; name?: string } | undefined;
      return {
        ok: result.ok,
        role: hit?.role,
        tag: hit?.tag,
        named: hit?.name?.includes(hit.tag === 'input' ? 'Full name' : 'Submit'),
      };
    });
    expect(hits).toEqual([
      { ok: true, role: 'textbox', tag: 'input', named: true },
      { ok: true, role: 'button', tag: 'button', named: true },
    ]);
    console.log(
      `[firefox] observation of ${String(results[0].snapshot).length} characters; trusted input: ${String(results[1].trusted)}`,
    );

    await switchToTab(marionette, formUrl);
    const outcome = await marionette.execute<{ name: string; result: string }>(
      "return { name: document.getElementById('name').value, result: document.getElementById('result').textContent };",
    );
    expect(outcome.name).toBe('Ada Lovelace');
    expect(outcome.result).toBe('Submitted: Ada Lovelace <> remember=false');
    console.log(`[firefox] form page outcome "${outcome.result}" in ${Date.now() - started} ms`);
  }, 120_000);

  it('clicks a span link of the MiniWoB++ click-link page by its [clickable] ref, its listener seen from document_start', async () => {
    const { marionette, pages, server } = suite;
    const pageUrl = `${pages.origin}/click-link.html`;
    await openPageTab(marionette, pageUrl);
    await switchToTab(marionette, panelUrl);
    await untilPageLineNames(marionette, 'Click link');
    task = [observe, actOn('generic', 'Eget', 'click'), () => ({ text: 'Clicked.' })];
    server.clearRequests();
    const turnsBefore = await turnCount(marionette);
    await sendFromComposer(marionette, 'Click on the link "Eget".');
    expect(await answerApprovals(marionette, panelUrl, turnsBefore)).toEqual(['Click generic "Eget" on 127.0.0.1.']);

    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
    const tool = messages.filter((message) => message.role === 'tool').at(-2);
    const snapshot = String((JSON.parse(tool!.content) as { snapshot?: unknown }).snapshot);
    expect(snapshot).toMatch(/- generic "Eget" \[clickable\] \[ref=e\d+\]/);
    // "Nunc" has a click listener only (no pointer cursor): seen because the bridge ran before the page's script.
    expect(snapshot).toMatch(/- generic "Nunc" \[clickable\] \[ref=e\d+\]/);
    await switchToTab(marionette, pageUrl);
    const outcome = await marionette.execute<{ clicked: string; transparent: string | null }>(
      "return { clicked: document.getElementById('clicked').textContent, transparent: document.body.getAttribute('data-transparent') };",
    );
    expect(outcome).toEqual({ clicked: 'Eget', transparent: 'true' });
  }, 120_000);

  it('drags a card with HTML5 drag and drop and a knob with pointer events, and picks from a combobox', async () => {
    const { marionette, pages } = suite;
    const openInTab = async (path: string, title: string) => {
      const pageUrl = `${pages.origin}/${path}`;
      await openPageTab(marionette, pageUrl);
      await switchToTab(marionette, panelUrl);
      await untilPageLineNames(marionette, title);
      return pageUrl;
    };
    const status = async (pageUrl: string) => {
      await switchToTab(marionette, pageUrl);
      const text = await marionette.execute<string>("return document.getElementById('status').textContent;");
      await switchToTab(marionette, panelUrl);
      return text;
    };
    const dragUrl = await openInTab('drag.html', 'Drag and drop');
    task = [
      observe,
      (last) => actOn('generic', 'Write report', 'drag', { toRef: refIn(last, 'region', 'Done') })(last),
      (last) => actOn('slider', 'Knob', 'drag', { toRef: refIn(last, 'region', 'Goal') })(last),
      () => ({ text: 'Moved.' }),
    ];
    let turnsBefore = await turnCount(marionette);
    await sendFromComposer(marionette, 'Move the report to Done and the knob to the goal.');
    expect(await answerApprovals(marionette, panelUrl, turnsBefore)).toEqual([
      'Drag generic "Write report" onto region "Done" on 127.0.0.1.',
      'Drag slider "Knob" onto region "Goal" on 127.0.0.1.',
    ]);
    expect(await status(dragUrl)).toBe('done=write knob=goal');

    const comboUrl = await openInTab('combobox.html', 'Combobox');
    task = [observe, actOn('combobox', 'City', 'select', { option: 'Lisbon' }), () => ({ text: 'Picked.' })];
    turnsBefore = await turnCount(marionette);
    await sendFromComposer(marionette, 'Pick Lisbon.');
    expect(await answerApprovals(marionette, panelUrl, turnsBefore)).toEqual([
      'Select "Lisbon" in combobox "City" on 127.0.0.1.',
    ]);
    expect(await status(comboUrl)).toBe('city=Lisbon seat=Any meal=Standard date=');
  }, 120_000);
});
