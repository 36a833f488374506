import type { Page } from 'puppeteer-core';

/** About 1,800 tokens of records no other message repeats. */
export function records(index: number): string {
  return Array.from(
    { length: 200 },
    (_, line) => `Record ${index}-${line} keeps value ${(index * 7919 + line * 104_729) % 100_000}.`,
  ).join(' ');
}

/**
 * Sends a long message without typing it key by key: the value as React sees input, then one real keystroke. It
 * returns once the message has left the composer, so a press of Send that did nothing fails here, by that name.
 */
export async function sendLongMessage(panel: Page, text: string): Promise<void> {
  await panel.evaluate((value) => {
    const area = document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement;
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, value);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await panel.type('textarea[aria-label="Message"]', '.');
  await panel.click('button[type="submit"]');
  await panel
    .waitForFunction(
      () => (document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement).value === '',
      { timeout: 30_000, polling: 50 },
    )
    .catch(() => {
      throw new Error(`Send left the message in the composer: ${text.slice(0, 40)}…`);
    });
}

/** The list shows a window of the turns, so a turn is found by its text, as the last one. */
export async function lastTurnEnd(panel: Page, text: string): Promise<string> {
  await panel.waitForFunction(
    (wanted) => {
      const turn = [...document.querySelectorAll('article.turn')].at(-1);
      return !!turn?.textContent?.includes(wanted) && turn.getAttribute('data-status') !== 'running';
    },
    { timeout: 60_000, polling: 100 },
    text,
  );
  return panel.$$eval('article.turn', (turns) => turns.at(-1)?.getAttribute('data-status') ?? '');
}
