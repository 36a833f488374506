import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { patternPng } from '../support/test-files';
import { firefoxSuite } from './firefox-suite';
import { firstTurnEnd, openPanel, sendFromComposer, until } from './sidebar-page';

describe('files in Firefox ESR', () => {
  const suite = firefoxSuite({
    server: () => startScriptedModelServer({ script: { turns: [{ steps: [{ text: 'A striped picture.' }] }] } }),
  });

  it('attaches an image in the sidebar page and sends it to the model, re-encoded', async () => {
    const { marionette, base, server } = suite;
    await openPanel(marionette, base, server.url);
    await until('the attach button', () =>
      marionette.execute<boolean>(
        'const button = document.querySelector(\'button[aria-label="Attach files"]\'); return Boolean(button) && !button.disabled;',
      ),
    );
    const png = patternPng(80, 60, 5);
    // The file input, as a user picking a file would fill it.
    const path = join(mkdtempSync(join(tmpdir(), 'splitbrain-ff-files-')), 'stripes.png');
    writeFileSync(path, png);
    const input = Object.values(await marionette.find('input[type="file"]'))[0];
    await marionette.send('WebDriver:ElementSendKeys', { id: input, text: path });
    await until('the chip to be ready', async () => {
      const chip = await marionette.execute<string>(
        "const chip = document.querySelector('.attachment-chip'); return chip ? chip.getAttribute('data-state') + ' ' + chip.textContent : 'none';",
      );
      if (chip.startsWith('ready')) return true;
      console.log(`[firefox] chip: ${chip}`);
      return false;
    });
    await sendFromComposer(marionette, 'What is this?');
    const status = await firstTurnEnd(marionette);
    expect(status).toBe('completed');
    const body = JSON.stringify(server.requests.at(-1)!.body);
    const match = /"url":"data:image\/png;base64,([^"]+)"/.exec(body);
    expect(match).not.toBeNull();
    const arrived = Buffer.from(match![1], 'base64');
    expect(arrived.subarray(1, 4).toString('latin1')).toBe('PNG');
    console.log(`[firefox] image of ${png.length} bytes arrived re-encoded as ${arrived.length} bytes`);
    expect(
      await until('the thumbnail', () =>
        marionette.execute<boolean>(
          "const image = document.querySelector('.message-attachments img'); return Boolean(image && image.complete && image.naturalWidth === 80);",
        ),
      ),
    ).toBe(true);
  }, 120_000);
});
