import type { Frame, Page } from 'puppeteer-core';

/** A target's frame, or anything else that evaluates a function inside it. */
export type TargetDocument = Pick<Frame, 'evaluate'>;
import type { ExtensionSession } from './extension-harness';

const WAIT = { polling: 100, timeout: 20_000 } as const;

/** The toolbar popup, opened as a page: puppeteer cannot click the toolbar button. */
export async function openPopup(session: ExtensionSession): Promise<Page> {
  const page = await session.browser.newPage();
  await page.setViewport({ width: 360, height: 600 });
  await page.goto(`chrome-extension://${session.extensionId}/popup.html`);
  await page.waitForSelector('ul.target-list');
  return page;
}

export async function chooseTarget(popup: Page, title: string): Promise<void> {
  await popup.bringToFront();
  await popup.click(`button.target-open::-p-text(${title})`);
  await popup.waitForFunction(
    (wanted) => document.querySelector('#parameter-form-title')?.textContent?.includes(wanted),
    WAIT,
    title,
  );
}

/** Types a whole value into a field and presses Enter, as a user would. */
export async function typeInto(popup: Page, label: string, text: string): Promise<void> {
  await popup.bringToFront();
  await popup.$eval(`input[aria-label="${label}"]`, (input) => {
    (input as HTMLInputElement).focus();
    (input as HTMLInputElement).select();
  });
  await popup.keyboard.type(text);
  await popup.keyboard.press('Enter');
}

export async function waitForField(popup: Page, label: string, expected: string): Promise<void> {
  try {
    await popup.waitForFunction(
      (name, value) => (document.querySelector(`[aria-label="${name}"]`) as HTMLInputElement | null)?.value === value,
      WAIT,
      label,
      expected,
    );
  } catch (error) {
    const shown = await popup
      .$eval(`[aria-label="${label}"]`, (input) => (input as HTMLInputElement).value)
      .catch(() => '(missing)');
    throw new Error(`The popup field "${label}" shows ${shown}, expected ${expected}: ${String(error)}`);
  }
}

export async function waitForResult(popup: Page, param: string, expected: string): Promise<void> {
  const selector = `.parameter-field[data-parameter="${param}"] .field-result`;
  try {
    await popup.waitForFunction(
      (query, text) => document.querySelector(query)?.textContent === text,
      WAIT,
      selector,
      expected,
    );
  } catch (error) {
    const shown = await popup.$eval(selector, (line) => line.textContent).catch(() => '(missing)');
    throw new Error(`The result under "${param}" reads "${shown}", expected "${expected}": ${String(error)}`);
  }
}

/** The notice above the form, which comes with the runtime's reply: after the values themselves may have arrived. */
export async function waitForFormNotice(popup: Page, expected: string): Promise<void> {
  try {
    await popup.waitForFunction((text) => document.querySelector('.form-notice')?.textContent === text, WAIT, expected);
  } catch (error) {
    const shown = await popup.$eval('.form-notice', (line) => line.textContent).catch(() => '(missing)');
    throw new Error(`The form notice reads "${shown}", expected "${expected}": ${String(error)}`);
  }
}

type BridgeWindow = { SplitbrainBridge: { currentState(): Record<string, unknown>; debug: { applyCount: number } } };

/** What the target has in effect, read inside its frame. */
export async function targetState(frame: TargetDocument): Promise<Record<string, unknown>> {
  return frame.evaluate(() => (window as unknown as BridgeWindow).SplitbrainBridge.currentState());
}

export async function applyCount(frame: TargetDocument): Promise<number> {
  return frame.evaluate(() => (window as unknown as BridgeWindow).SplitbrainBridge.debug.applyCount);
}

/** Polls by evaluating (not `waitForFunction`) so it works for any `TargetDocument`; background tabs run no rAF. */
export async function waitForTargetValue(
  frame: TargetDocument,
  param: string,
  expected: unknown,
  timeoutMs = 20_000,
): Promise<void> {
  const wanted = JSON.stringify(expected);
  const deadline = Date.now() + timeoutMs;
  let seen: unknown;
  while (Date.now() < deadline) {
    seen = (await targetState(frame))[param];
    if (JSON.stringify(seen) === wanted) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`The target has ${param} = ${JSON.stringify(seen)}, expected ${wanted} (waited ${timeoutMs} ms).`);
}
