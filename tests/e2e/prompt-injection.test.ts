import type { Page } from 'puppeteer-core';
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
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

/** Written by the target (tests/targets/injection): in its manifest description and in the state it reports. */
const INSTRUCTIONS = /ignore previous instructions/i;

interface ChatMessage {
  role: string;
  content?: unknown;
}

interface StoredEvent {
  type: string;
  toolCallId?: string;
  data?: { toolName?: string; input?: unknown };
}

async function storedEvents(page: Page, sessionId: string): Promise<StoredEvent[]> {
  return page.evaluate(
    (id) =>
      new Promise<StoredEvent[]>((resolve, reject) => {
        const request = indexedDB.open('splitbrain');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const rows = request.result
            .transaction('events')
            .objectStore('events')
            .getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
          rows.onsuccess = () => resolve((rows.result as { event: StoredEvent }[]).map((row) => row.event));
          rows.onerror = () => reject(new Error(String(rows.error)));
        };
      }),
    sessionId,
  );
}

describe('instructions inside tool results and target state are data, not commands', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('sends the instructions back inside tool results only, and runs exactly the calls the script asked for', async () => {
    const scripted = [
      { name: 'listTargets', arguments: {} },
      { name: 'openTarget', arguments: { targetId: 'injection' } },
      { name: 'getParameters', arguments: {} },
      { name: 'setParameter', arguments: { param: 'level', value: 5 } },
    ];
    server.setScript({
      turns: [{ steps: [...scripted.map((call) => ({ toolCalls: [call] })), { text: 'Level is 5.' }] }],
    });
    const panel = await session.openPanel();
    const userText = 'Open the injection page and set its level to 5.';
    await sendMessage(panel, userText);
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');

    expect(server.requests).toHaveLength(scripted.length + 1);
    const messages = (server.requests.at(-1)!.body as { messages: ChatMessage[] }).messages;
    const carrying = (role: string) =>
      messages.filter((message) => message.role === role && INSTRUCTIONS.test(JSON.stringify(message.content ?? '')))
        .length;
    const figures = {
      system: carrying('system'),
      user: carrying('user'),
      assistant: carrying('assistant'),
      tool: carrying('tool'),
    };

    const events = await storedEvents(panel, await currentSessionId(panel));
    const requested = events.filter((event) => event.type === 'tool/requested').map((event) => event.data?.toolName);
    const frame = await session.targetFrame('injection');
    const resetsInTarget = await frame.evaluate(
      () =>
        (window as unknown as { SplitbrainBridge: { debug: { resetCount: number } } }).SplitbrainBridge.debug
          .resetCount,
    );
    const level = await frame.evaluate(
      () =>
        (
          window as unknown as { SplitbrainBridge: { currentState(): { level: number } } }
        ).SplitbrainBridge.currentState().level,
    );
    console.log(
      `[prompt injection] messages carrying the instructions by role: system=${figures.system} user=${figures.user} assistant=${figures.assistant} tool=${figures.tool}; ` +
        `tool calls scripted=${scripted.length} executed=${requested.length} (${requested.join(', ')}); resetTarget executed=${requested.filter((name) => name === 'resetTarget').length}; resets in the target=${resetsInTarget}`,
    );

    expect(figures.tool).toBeGreaterThanOrEqual(2);
    expect(figures.system).toBe(0);
    expect(figures.user).toBe(0);
    expect(figures.assistant).toBe(0);
    const users = messages.filter((message) => message.role === 'user');
    expect(users).toHaveLength(1);
    expect(JSON.stringify(users[0].content)).toContain(userText);

    expect(requested).toEqual(scripted.map((call) => call.name));
    expect(resetsInTarget).toBe(0);
    expect(level).toBe(5);
    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => `${item.getAttribute('aria-label')}:${item.getAttribute('data-status')}`),
    );
    expect(cards).toEqual(scripted.map((call) => `Tool call ${call.name}:done`));
    await panel.close();
  });
});
