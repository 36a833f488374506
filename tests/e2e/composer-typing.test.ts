import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { configureEndpoint, launchExtension, waitForTurnEnd, type ExtensionSession } from './extension-harness';

const LOGIN_REQUEST =
  'On this page: Enter the username "xxx" and the password "GM9gk" into the text fields and press login.';

function lastUserText(body: unknown): string {
  const users = (body as { messages: { role: string; content?: unknown }[] }).messages.filter(
    (message) => message.role === 'user',
  );
  const content = users.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

describe('typing into the composer', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script: { turns: [{ steps: [{ text: 'Done.' }] }] } });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    panel = await session.openPanel();
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('keeps a long request with quotes exactly as typed, and sends it exactly', async () => {
    const loaded: string[] = [];
    panel.on('requestfinished', (request) => loaded.push(new URL(request.url()).pathname));
    expect(loaded.some((path) => path.includes('/agent-loop-'))).toBe(false);
    // 101 characters: Puppeteer sets the value and fires `input` instead of typing key by key, as dictation and
    // text-expander tools do.
    await panel.locator('::-p-aria(Message)').fill(LOGIN_REQUEST);
    // What a turn runs with (the agent loop, the providers, the tokenizer) loads as the user writes, not after Send.
    for (let polls = 0; polls < 200 && !loaded.some((path) => path.includes('/cl100k_base-')); polls++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(loaded.filter((path) => /\/(agent-loop|create-language-model|cl100k_base)-/.test(path))).toHaveLength(3);
    expect(await panel.$eval('textarea[aria-label="Message"]', (box) => (box as HTMLTextAreaElement).value)).toBe(
      LOGIN_REQUEST,
    );
    expect(await panel.$eval('button[type="submit"]', (button) => (button as HTMLButtonElement).disabled)).toBe(false);
    await panel.click('button[type="submit"]');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(server.requests.map((request) => lastUserText(request.body))).toEqual([LOGIN_REQUEST]);
  }, 60_000);

  it('sends a message pressed while the conversation still loads, once it has loaded', async () => {
    // The runtime is kept busy, so the new panel's history cannot arrive before Send is pressed.
    const worker = await session.worker();
    await worker.evaluate(() => {
      setTimeout(() => {
        const until = Date.now() + 10_000;
        while (Date.now() < until);
      }, 0);
    });
    const opened = await session.openPanel();
    const text = 'Sent while the conversation loaded';
    await opened.locator('::-p-aria(Message)').fill(text);
    await opened.click('button[type="submit"]');
    expect(await opened.$eval('#composer-hint', (hint) => hint.textContent)).toBe(
      'Sends once the conversation has loaded',
    );
    expect(await waitForTurnEnd(opened, 1, 60_000)).toBe('completed');
    expect(await opened.$eval('textarea[aria-label="Message"]', (box) => (box as HTMLTextAreaElement).value)).toBe('');
    expect(server.requests.map((request) => lastUserText(request.body))).toEqual([LOGIN_REQUEST, text]);
    await opened.close();
  }, 90_000);
});
