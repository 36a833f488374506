import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  currentSessionId,
  launchExtension,
  sendMessage,
  waitForStoredRows,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

const LONG_TEXT = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');

describe('the side panel is closed in the middle of a stream or of a tool call', () => {
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
    await panel.waitForFunction(
      () => (document.querySelector('.assistant-message')?.textContent ?? '').includes('word5'),
      { polling: 50, timeout: 20_000 },
    );
    const seen = await panel.$eval('.assistant-message', (element) => element.textContent ?? '');
    await panel.close();

    const reopened = await session.openPanel();
    expect(await waitForTurnEnd(reopened, 0)).toBe('interrupted');
    const kept = await reopened.$eval('.assistant-message', (element) => ({
      text: element.firstChild?.textContent ?? '',
      status: element.getAttribute('data-item-status'),
    }));
    expect(kept.status).toBe('interrupted');
    expect(kept.text.startsWith(seen.trim())).toBe(true);
    expect(LONG_TEXT.startsWith(kept.text)).toBe(true);
    expect(kept.text.length).toBeLessThan(LONG_TEXT.length);

    await reopened.click('button::-p-text(Retry message)');
    expect(await waitForTurnEnd(reopened, 1)).toBe('completed');
    const texts = await reopened.$$eval('.assistant-message', (items) =>
      items.map((item) => item.firstChild?.textContent ?? ''),
    );
    expect(texts).toEqual([kept.text, LONG_TEXT]);
    const retryRequest = server.requests.at(-1)!.body as { messages: { role: string }[] };
    expect(retryRequest.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    await reopened.close();
  });

  it('records a turn whose panel closed during a tool call as interrupted or completed, never still generating, and applies the call once', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'slow-counter' } }] },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'count', value: 7 } }] },
            { text: 'The counter is 7.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Set the slow counter to 7.');
    const sessionId = await currentSessionId(panel);
    const started = await waitForStoredRows(panel, sessionId, 'tool/started', 2);
    expect(started, 'the panel closes while the slow target is still getting ready').toBe(2);
    const closed = Date.now();
    await panel.close();

    const reopened = await session.openPanel();
    const status = await waitForTurnEnd(reopened, 0, 15_000);
    const endedAfterMs = Date.now() - closed;
    expect(['interrupted', 'completed']).toContain(status);
    const frame = await session.targetFrame('slow-counter');
    await frame.waitForFunction(
      () => (window as unknown as { SplitbrainBridge: { isReady(): boolean } }).SplitbrainBridge.isReady(),
      { polling: 100, timeout: 10_000 },
    );
    await reopened.waitForFunction(
      () =>
        [...document.querySelectorAll('section.tool-card')].every((card) =>
          ['done', 'failed', 'unknown'].includes(card.getAttribute('data-status') ?? ''),
        ),
      { polling: 100, timeout: 10_000 },
    );
    const cards = await reopened.$$eval('section.tool-card', (items) =>
      items.map((item) => item.getAttribute('data-status')),
    );
    const applies = await frame.evaluate(
      () =>
        (window as unknown as { SplitbrainBridge: { debug: { applyCount: number } } }).SplitbrainBridge.debug
          .applyCount,
    );
    const generating = (await reopened.$('button.stop-button')) !== null;
    console.log(
      `[panel closed mid tool call] turn ${status} ${endedAfterMs} ms after the panel closed; cards ${cards.join(', ')}; applies ${applies}`,
    );
    expect(cards).toEqual(['done', 'done']);
    expect(applies).toBe(1);
    expect(generating, 'no Stop button: nothing is still generating').toBe(false);
    await reopened.close();
  });
});
