import type { Page } from 'puppeteer-core';
import type { ExtensionSession } from './extension-harness';

/** Opens Settings in a new tab (at `viewport`, if given) and waits for its MCP section. */
export async function openMcpSettings(
  session: ExtensionSession,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const options = await session.browser.newPage();
  if (viewport) await options.setViewport(viewport);
  await options.goto(`chrome-extension://${session.extensionId}/options.html`);
  await options.waitForSelector('section.mcp-servers');
  return options;
}

/** Replaces what a field of the page (found by its label) holds with `value`, typed. */
export async function fillField(page: Page, label: string, value: string): Promise<void> {
  const selector = `[aria-label="${label}"]`;
  await page.$eval(selector, (element) => ((element as HTMLInputElement).value = ''));
  await page.type(selector, value);
}

/** Types a server's name and address into the MCP server editor. */
export async function enterMcpServer(options: Page, name: string, url: string): Promise<void> {
  await fillField(options, 'Server name', name);
  await fillField(options, 'Server URL', url);
}

/** Presses the editor's Test connection and waits for its report: each line as `<data-ok> <text>`. */
export async function testConnection(options: Page): Promise<string[]> {
  await options.click('.mcp-server-editor button::-p-text(Test connection)');
  await options.waitForFunction(
    () =>
      document.querySelector('.mcp-server-editor .connection-check') &&
      !document.querySelector('.mcp-server-editor .spinner'),
    { timeout: 30_000 },
  );
  return options.$$eval('.mcp-server-editor .connection-check', (items) =>
    items.map((item) => `${item.getAttribute('data-ok')} ${item.textContent}`),
  );
}

/** Waits until the editor's status line says exactly `text`. */
export async function waitForEditorStatus(options: Page, text: string): Promise<void> {
  await options.waitForFunction(
    (wanted) => document.querySelector('.mcp-server-editor .status')?.textContent === wanted,
    { timeout: 5_000 },
    text,
  );
}

/** Submits the editor and waits until it says the server `name` is saved. */
export async function saveMcpServer(options: Page, name: string): Promise<void> {
  await options.click('.mcp-server-editor button[type="submit"]');
  await waitForEditorStatus(options, `Saved ${name}.`);
}
