import type { Frame, Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { userMessagesOf } from '../support/conversation-of';
import { SETTING_SPEEDS } from '../support/setting-speeds';
import { currentSessionId, readStoredLog, sendMessage, storedRowsText, waitForTurnEnd } from './extension-harness';
import { extensionSuite } from './extension-suite';
import { readInsideTarget, waitUntilReady } from './manual-tool';
import { openPopup, typeInto, waitForResult } from './popup-driver';

/** Polls the target's own state until `param` is `value` (a frame's waitForFunction with arguments never resolves in the sandboxed frame). */
async function waitForValue(frame: Frame, param: string, value: unknown): Promise<void> {
  const deadline = Date.now() + 20_000;
  let state: Record<string, unknown> = {};
  while (Date.now() < deadline) {
    state = (await readInsideTarget(frame)).state;
    if (state[param] === value) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The target's ${param} stayed ${JSON.stringify(state[param])}, not ${JSON.stringify(value)}.`);
}

const waitForSpeed = (frame: Frame, speed: number) => waitForValue(frame, 'speed', speed);

async function shownTexts(panel: Page): Promise<string[]> {
  return panel.$$eval('article.turn .user-message, article.turn .assistant-message', (nodes) =>
    nodes.map((node) => (node.textContent ?? '').trim()),
  );
}

async function waitForShown(panel: Page, texts: string[]): Promise<void> {
  await panel
    .waitForFunction(
      (wanted: string[]) =>
        document.querySelectorAll('article.turn[data-status="running"]').length === 0 &&
        JSON.stringify(
          [...document.querySelectorAll('article.turn .user-message, article.turn .assistant-message')].map((node) =>
            (node.textContent ?? '').trim(),
          ),
        ) === JSON.stringify(wanted),
      { timeout: 20_000, polling: 100 },
      texts,
    )
    .catch(async (error: unknown) => {
      throw new Error(`${String(error)}: the panel shows ${JSON.stringify(await shownTexts(panel))}`);
    });
}

describe('rewind', () => {
  const suite = extensionSuite({ model: () => startScriptedModelServer({ script: SETTING_SPEEDS }) });
  let panel: Page;

  beforeAll(async () => {
    panel = await suite.session.openPanel();
    await panel.setViewport({ width: 420, height: 760 });
  });

  it('rewinds with target values: the stage shows the values of then, and the next request carries only the rewound branch', async () => {
    const { model, session } = suite;
    await sendMessage(panel, 'Set the speed to 12');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const frame = await session.targetFrame('particles');
    await waitUntilReady(frame);
    await waitForSpeed(frame, 12);
    // The stage tab opened in front of the panel: a page behind another gets no frames, so clicks in it never land.
    await panel.bringToFront();
    await sendMessage(panel, 'Now 30 with vectors');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    await waitForSpeed(frame, 30);
    expect((await readInsideTarget(frame)).state.show_vectors).toBe(true);

    // Rewind to the second message, with target values: the confirmation names what it puts back.
    await panel.bringToFront();
    const [, second] = await panel.$$('article.turn');
    await (await second.$('button[aria-label="Rewind to this message"]'))!.click();
    await panel.waitForSelector('dialog.rewind-dialog fieldset.rewind-modes');
    await panel.click('dialog.rewind-dialog input[value="values"]');
    const restored = await panel.$eval('dialog.rewind-dialog section[aria-label="Target values restored"]', (section) =>
      (section.textContent ?? '').trim(),
    );
    expect(restored).toContain('particles: speed = 12, show_vectors = false');
    const notUndone = await panel.$eval('dialog.rewind-dialog section[aria-label="Not undone"]', (section) =>
      (section.textContent ?? '').trim(),
    );
    expect(notUndone).toContain('Nothing outside the conversation happened after this point.');
    await panel.evaluate(() => document.fonts.ready);
    await panel.screenshot({ path: 'tests/screenshots/rewind.png' });
    await panel.click('dialog.rewind-dialog button.button-primary');
    await panel.waitForFunction(() => !document.querySelector('dialog.rewind-dialog'), { timeout: 10_000 });

    // The live target shows the value of then; the view ends before the rewound message, which stays in the log.
    await waitForSpeed(frame, 12);
    expect((await readInsideTarget(frame)).state).toMatchObject({ speed: 12, show_vectors: false });
    await waitForShown(panel, ['Set the speed to 12', 'Speed 12.']);
    await panel.waitForSelector('.rewound-notice');

    // The next message is a sibling of the rewound one: the model is sent the first turn and it, never "Now 30".
    model.setScript({ turns: [SETTING_SPEEDS.turns[0], { steps: [{ text: 'Blue it is.' }] }] });
    model.clearRequests();
    await sendMessage(panel, 'Make it blue instead');
    await waitForShown(panel, ['Set the speed to 12', 'Speed 12.', 'Make it blue instead', 'Blue it is.']);
    expect(model.requests).toHaveLength(1);
    expect(userMessagesOf(model.requests[0].body)).toEqual(['Set the speed to 12', 'Make it blue instead']);
    expect(JSON.stringify(model.requests[0].body)).not.toContain('Now 30');
    expect(await panel.$('.rewound-notice')).toBeNull();
    expect(
      await panel.$$eval('nav.branch-switcher[aria-label^="Message "]', (navs) =>
        navs.map((nav) => nav.getAttribute('aria-label')),
      ),
    ).toEqual(['Message 2 of 2']);

    const sessionId = await currentSessionId(panel);
    const rows = await readStoredLog(panel, sessionId);
    expect(rows.filter((row) => row.type === 'turn/started')).toHaveLength(3);
    expect(rows.filter((row) => row.type === 'rewind/applied')).toHaveLength(1);
    const text = await storedRowsText(panel, sessionId);
    expect(text).toContain('"mode":"values"');
    expect(text).toContain('"values":[{"targetId":"particles","values":{"speed":12,"show_vectors":false}}]');
  }, 120_000);

  it("counts the toolbar's changes: a speed set there before the point comes back, a count set there after it goes back", async () => {
    const { model, session } = suite;
    model.setScript(SETTING_SPEEDS);
    await panel.bringToFront();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Set the speed to 12');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const frame = await session.targetFrame('particles');
    await waitForSpeed(frame, 12);
    const countThen = (await readInsideTarget(frame)).state.particle_count;

    // From the toolbar, between the two messages: the speed goes to 20.
    const popup = await openPopup(session);
    await typeInto(popup, 'speed', '20');
    await waitForResult(popup, 'speed', 'Applied: 20 m/s.');
    await waitForSpeed(frame, 20);
    await panel.bringToFront();
    await sendMessage(panel, 'Now 30 with vectors');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    await waitForSpeed(frame, 30);
    // And after the second message, the particle count.
    await typeInto(popup, 'particle_count', '1234');
    await waitForValue(frame, 'particle_count', 1234);
    await popup.close();

    await panel.bringToFront();
    const [, second] = await panel.$$('article.turn');
    await (await second.$('button[aria-label="Rewind to this message"]'))!.click();
    await panel.waitForSelector('dialog.rewind-dialog fieldset.rewind-modes');
    await panel.click('dialog.rewind-dialog input[value="values"]');
    const restored = await panel.$eval('dialog.rewind-dialog section[aria-label="Target values restored"]', (section) =>
      (section.textContent ?? '').trim(),
    );
    expect(restored).toContain(`particles: speed = 20, show_vectors = false, particle_count = ${countThen}`);
    expect(restored).toContain(
      'what you changed from the toolbar (a change from the toolbar since this point goes back too)',
    );
    await panel.click('dialog.rewind-dialog button.button-primary');

    await waitForSpeed(frame, 20);
    expect((await readInsideTarget(frame)).state).toMatchObject({
      speed: 20,
      show_vectors: false,
      particle_count: countThen,
    });
    const text = await storedRowsText(panel, await currentSessionId(panel));
    expect(text).toContain(
      `"values":[{"targetId":"particles","values":{"speed":20,"show_vectors":false,"particle_count":${countThen}}}]`,
    );
  }, 120_000);
});
