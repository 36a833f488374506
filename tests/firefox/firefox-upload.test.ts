import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { startPageServers } from '../support/static-page-server';
import { observationIn, observe, pageTaskResponder, type PageTaskStep } from '../support/page-task-model';
import { firefoxSuite } from './firefox-suite';
import {
  answerApprovals,
  firstTurnEnd,
  openPageTab,
  openPanelBesidePage,
  sendFromComposer,
  switchToTab,
  turnCount,
  until,
} from './sidebar-page';

const CSV = 'id,item\n1,Lamp\n2,Desk\n';

/** An uploadFile call into the element of the last observation whose line (with a ref) contains `text`. */
function upload(text: string, file: string): PageTaskStep {
  return (last) => {
    const observation = observationIn(last);
    const line = String(observation.snapshot)
      .split('\n')
      .find((candidate) => candidate.includes(text) && candidate.includes('[ref='));
    const ref = line ? /\[ref=(e\d+)\]/.exec(line)?.[1] : undefined;
    if (!ref) throw new Error(`No "${text}" with a ref in:\n${String(observation.snapshot)}`);
    return { toolCalls: [{ name: 'uploadFile', arguments: { observationId: observation.observationId, ref, file } }] };
  };
}

describe('uploads into a page in Firefox ESR', () => {
  const suite = firefoxSuite({
    pages: () => startPageServers(),
    server: () => startScriptedModelServer({ respond: pageTaskResponder(() => task) }),
  });
  const task: PageTaskStep[] = [
    observe,
    upload('Choose a spreadsheet', 'orders.csv'),
    upload('Drop a file here', 'orders.csv'),
    () => ({ text: 'Uploaded.' }),
  ];

  it('puts a file attached in the sidebar page into a file input and onto a drop zone; the page reads both back', async () => {
    const { marionette, base, pages, server } = suite;
    const pageUrl = `${pages.origin}/upload.html`;
    await openPageTab(marionette, pageUrl);
    const panelUrl = await openPanelBesidePage(marionette, base, server.url, 'Send a file');
    const path = join(mkdtempSync(join(tmpdir(), 'splitbrain-ff-upload-')), 'orders.csv');
    writeFileSync(path, CSV);
    const input = Object.values(await marionette.find('input[type="file"]'))[0];
    await marionette.send('WebDriver:ElementSendKeys', { id: input, text: path });
    await until('the chip to be ready', () =>
      marionette.execute<boolean>(
        "return document.querySelector('.attachment-chip')?.getAttribute('data-state') === 'ready';",
      ),
    );
    const turnsBefore = await turnCount(marionette);
    await sendFromComposer(marionette, 'Send the orders to the page.');
    const asked = await answerApprovals(marionette, panelUrl, turnsBefore);
    console.log(`[firefox] approval cards: ${JSON.stringify(asked)}`);
    expect(await firstTurnEnd(marionette)).toBe('completed');
    const size = Buffer.byteLength(CSV);
    expect(asked.filter((summary) => summary.startsWith('Upload'))).toEqual([
      `Upload "orders.csv" (${size} B) into button "Choose a spreadsheet" on 127.0.0.1.`,
      `Upload "orders.csv" (${size} B) into button "Drop a file here" on 127.0.0.1.`,
    ]);

    await switchToTab(marionette, pageUrl);
    const readBack = await marionette.execute<{ input: string; drop: string }>(
      "return { input: document.getElementById('input-result').textContent, drop: document.getElementById('drop-result').textContent };",
    );
    const expected = `orders.csv | ${size} bytes | text/csv | starts with ${JSON.stringify(CSV.slice(0, 16))}`;
    expect(readBack).toEqual({ input: `${expected} | input,change`, drop: `${expected} | dragenter,dragover,drop` });
  }, 120_000);
});
