import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../model-server/scripted-model-server';
import { configureEndpoint, launchExtension, sendMessage, waitForTurnEnd, type ExtensionSession } from './extension-harness';

const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');

describe('the side panel is closed in the middle of a stream', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer({ script: { turns: [{ steps: [{ text: LONG_TEXT, delayMs: 60 }] }] } });
    session = await launchExtension();
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('records the turn as interrupted with the text the user saw, and a retry is a new completed turn', async () => {
    const panel = await session.openPanel();
    await sendMessage(panel, 'Tell me a long story.');
    await panel.waitForFunction(() => (document.querySelector('.assistant-message')?.textContent ?? '').includes('word5'), { polling: 50, timeout: 20_000 });
    const seen = await panel.$eval('.assistant-message', (element) => element.textContent ?? '');
    await panel.close();

    const reopened = await session.openPanel();
    expect(await waitForTurnEnd(reopened, 0)).toBe('interrupted');
    const kept = await reopened.$eval('.assistant-message', (element) => ({ text: element.firstChild?.textContent ?? '', status: element.getAttribute('data-item-status') }));
    expect(kept.status).toBe('interrupted');
    expect(kept.text.startsWith(seen.trim())).toBe(true);
    expect(LONG_TEXT.startsWith(kept.text)).toBe(true);
    expect(kept.text.length).toBeLessThan(LONG_TEXT.length);

    await reopened.click('button::-p-text(Retry)');
    expect(await waitForTurnEnd(reopened, 1)).toBe('completed');
    const texts = await reopened.$$eval('.assistant-message', (items) => items.map((item) => item.firstChild?.textContent ?? ''));
    expect(texts).toEqual([kept.text, LONG_TEXT]);
    const retryRequest = server.requests.at(-1)!.body as { messages: { role: string }[] };
    expect(retryRequest.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    await reopened.close();
  });
});
