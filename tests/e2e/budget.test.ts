import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script, ScriptedUsage } from '../../scripts/scripted-model-server/script';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { scriptedEndpointSettings } from '../support/scripted-endpoint-settings';
import {
  configureProfile,
  currentSessionId,
  launchExtension,
  readStoredLog,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { manualTool } from './manual-tool';

const step: ScriptedUsage = { inputTokens: 900, outputTokens: 150 };

/** Three model calls; the first alone (1,050 tokens) reaches the 1,000-token budget. */
const script: Script = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }], usage: step },
        { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 12 } }], usage: step },
        { text: 'Speed set to 12 m/s.', usage: step },
      ],
    },
    { steps: [{ text: 'Going over the budget once, as you confirmed.', usage: step }] },
  ],
};

const DISMISS = '[data-fact="notify/budget-reached"] button[aria-label="Dismiss notice"]';

interface Point {
  x: number;
  y: number;
}

/**
 * Runs in the panel before its scripts: notes the middle of the notice's × in the first commit that shows it, where
 * a click read from the page right then would be aimed.
 */
function noteFirstDismissPoint(selector: string) {
  const observer = new MutationObserver(() => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    if (!box) return;
    observer.disconnect();
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    (globalThis as unknown as { firstDismissPoint: Point }).firstDismissPoint = point;
  });
  observer.observe(document, { subtree: true, childList: true });
}

describe('a per-conversation budget', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('stops a three-step turn after the step in flight, names the budget, and refuses the next turn until confirmed once', async () => {
    await configureProfile(session, scriptedEndpointSettings('openai-chat', server.origin));
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.evaluate(async () => {
      const storage = (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local;
      await storage.set({
        usageSettings: { prices: [], budgets: { conversation: { unit: 'tokens', limit: 1000 } } },
      });
    });
    await options.close();
    server.setScript(script);
    const panel = await session.openPanel();
    await panel.click('button::-p-text(New chat)');
    expect(await manualTool(panel, 'openTarget', { targetId: 'particles' })).toMatchObject({ ok: true });
    await panel.bringToFront();
    const requestsBefore = server.requests.length;

    await sendMessage(panel, 'Set the speed to 12.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(server.requests.length - requestsBefore).toBe(1);
    const turn = await panel.$eval('article.turn', (article) => ({
      status: article.querySelector('.turn-status')?.textContent ?? '',
      notice: article.parentElement?.querySelector('[data-fact="notify/budget-reached"]')?.textContent ?? '',
      budget: article.parentElement?.querySelector('[data-fact="notify/budget-reached"]')?.getAttribute('data-budget'),
    }));
    console.log(`budget notice: ${turn.notice}`);
    expect(turn.status).toBe('Stopped: budget reached');
    expect(turn.budget).toBe('conversation');
    expect(turn.notice).toContain('Conversation budget reached: 1,050 of 1,000 tokens, 50 over.');

    const sessionId = await currentSessionId(panel);
    const rows = await readStoredLog(panel, sessionId);
    const count = (type: string) => rows.filter((row) => row.type === type).length;
    // The tool call the model asked for ran to its end; the next model call never started.
    expect(count('tool/started')).toBe(1);
    expect(count('tool/completed')).toBe(1);
    expect(count('step/completed')).toBe(1);
    expect(count('notify/budget-reached')).toBe(1);
    expect(rows.at(-1)?.type).toBe('turn/completed');

    await sendMessage(panel, 'And now 20.');
    await panel.waitForSelector('.budget-refusal');
    expect(await panel.$eval('.budget-refusal', (element) => element.textContent)).toContain(
      'Conversation budget reached',
    );
    expect(await panel.$$eval('article.turn', (turns) => turns.length)).toBe(1);
    expect(server.requests.length - requestsBefore).toBe(1);

    await panel.click('button::-p-text(Send once over budget)');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    expect(server.requests.length - requestsBefore).toBe(2);
    expect(await panel.$$eval('.turn-status', (statuses) => statuses.map((status) => status.textContent))).toEqual([
      'Stopped: budget reached',
    ]);
    expect(await panel.$('.budget-refusal')).toBeNull();

    // The notice is a fact in the log: it is shown again after a reload.
    await panel.evaluateOnNewDocument(noteFirstDismissPoint, DISMISS);
    await panel.reload();
    await panel.waitForSelector('[data-fact="notify/budget-reached"]', { timeout: 30_000 });

    // Its × records notify/dismissed: the notice goes away and stays away after a reload. The click is aimed where
    // the × was when it first showed, as a click that read its place right then would be: the turns laid out after
    // the reload must not have moved it from there (they did, and such a click missed it).
    const aimed = await panel.evaluate(() => (globalThis as unknown as { firstDismissPoint: Point }).firstDismissPoint);
    const now = await panel.$eval(DISMISS, (button) => {
      const box = button.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    });
    console.log(`dismiss button first at ${aimed.x},${aimed.y}, now at ${now.x},${now.y}`);
    await panel.mouse.click(aimed.x, aimed.y);
    await panel.waitForFunction(() => !document.querySelector('[data-fact="notify/budget-reached"]'), {
      timeout: 10_000,
    });
    const dismissals = (await readStoredLog(panel, await currentSessionId(panel))).filter(
      (row) => row.type === 'notify/dismissed',
    );
    expect(dismissals).toHaveLength(1);
    await panel.reload();
    await panel.waitForSelector('article.turn');
    expect(await panel.$('[data-fact="notify/budget-reached"]')).toBeNull();
    await panel.close();
  });
});
