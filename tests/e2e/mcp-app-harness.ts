import type { Frame } from 'puppeteer-core';
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

export function textOf(frame: Frame, selector: string): Promise<string> {
  return frame.$eval(selector, (element) => element.textContent ?? '');
}
