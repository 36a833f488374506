import type { Frame, Page } from 'puppeteer-core';
import type { ExtensionSession } from './extension-harness';

/** The stage's frame of the MCP App whose document shows `marker`, once the app is in it. */
export async function appFrame(session: ExtensionSession, marker: string): Promise<Frame> {
  const stage = await session.stagePage();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const frame = stage.frames().find((candidate) => candidate.url().includes('/mcp-app-host.html'));
    const shown = await frame?.evaluate((text) => document.body.innerText.includes(text), marker).catch(() => false);
    if (frame && shown) return frame;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No MCP App frame showing "${marker}" appeared.`);
}

/** The final state of the turn of the user's message `text` (the list is virtual: turns are found by their message). */
export async function turnEnd(panel: Page, text: string): Promise<string> {
  const handle = await panel.waitForFunction(
    (message) => {
      const turn = [...document.querySelectorAll('article.turn')].find(
        (article) => article.querySelector('.user-message')?.textContent === message,
      );
      const status = turn?.getAttribute('data-status');
      return status && status !== 'running' ? status : false;
    },
    { polling: 100, timeout: 30_000 },
    text,
  );
  return (await handle.jsonValue()) as string;
}

export function textOf(frame: Frame, selector: string): Promise<string> {
  return frame.$eval(selector, (element) => element.textContent ?? '');
}
