import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script, ScriptedUsage } from '../../scripts/scripted-model-server/script';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { TokenUsage } from '../../lib/protocol/token-usage';
import { scriptedEndpointSettings, type EndpointFormat } from '../support/scripted-endpoint-settings';
import {
  configureProfile,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { manualTool } from './manual-tool';

const toolStep: ScriptedUsage = { inputTokens: 1234, outputTokens: 56, reasoningTokens: 12, cachedInputTokens: 1000 };
const textStep: ScriptedUsage = { inputTokens: 1320, outputTokens: 41, reasoningTokens: 7, cachedInputTokens: 1200 };
const secondTurn: ScriptedUsage = { inputTokens: 1400, outputTokens: 9, reasoningTokens: 3, cachedInputTokens: 1300 };

const script: Script = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }], usage: toolStep },
        { text: 'The particles move at their default speed.', usage: textStep },
      ],
    },
    { steps: [{ text: 'Nothing else to change.', usage: secondTurn }] },
  ],
};

function sum(...usages: ScriptedUsage[]): TokenUsage {
  return {
    inputTokens: usages.reduce((total, usage) => total + usage.inputTokens, 0),
    outputTokens: usages.reduce((total, usage) => total + usage.outputTokens, 0),
    reasoningTokens: usages.reduce((total, usage) => total + (usage.reasoningTokens ?? 0), 0),
    cachedInputTokens: usages.reduce((total, usage) => total + (usage.cachedInputTokens ?? 0), 0),
  };
}

/** Anthropic reports no reasoning figure (thinking is inside its output tokens), so none is shown. */
function asReported(format: EndpointFormat, usage: TokenUsage): TokenUsage {
  if (format !== 'anthropic') return usage;
  const { reasoningTokens: _reasoning, ...reported } = usage;
  return reported;
}

interface UsageView {
  turns: (TokenUsage | null)[];
  conversation: TokenUsage | null;
}

const FIGURES = ['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

/** Reads the figures from the usage lines' data attributes (their text depends on the locale). */
async function usageView(panel: Page): Promise<UsageView> {
  return panel.evaluate((figures) => {
    const read = (element: Element | null) => {
      if (!(element instanceof HTMLElement)) return null;
      const usage: Record<string, number> = {};
      for (const figure of figures)
        if (element.dataset[figure] !== undefined) usage[figure] = Number(element.dataset[figure]);
      return usage;
    };
    return {
      turns: [...document.querySelectorAll('article.turn')].map((turn) => read(turn.querySelector('.turn-usage'))),
      conversation: read(document.querySelector('.conversation-usage')),
    };
  }, FIGURES);
}

/** The current conversation's row in the session drawer; the drawer is closed again afterwards. */
async function drawerUsage(panel: Page): Promise<TokenUsage | null> {
  await panel.click('button[aria-label="Sessions"]');
  await panel.waitForSelector('.session-row[data-current]');
  const usage = await panel.$eval(
    '.session-row[data-current]',
    (row, figures) => {
      const element = row.querySelector('.session-usage');
      if (!(element instanceof HTMLElement)) return null;
      const reported: Record<string, number> = {};
      for (const figure of figures)
        if (element.dataset[figure] !== undefined) reported[figure] = Number(element.dataset[figure]);
      return reported;
    },
    FIGURES,
  );
  await panel.click('button[aria-label="Close conversations"]');
  await panel.waitForSelector('.session-row', { hidden: true });
  return usage;
}

async function waitUntilCaughtUp(panel: Page, turns: number): Promise<void> {
  await panel.waitForSelector('textarea[aria-label="Message"]');
  await panel.waitForFunction(
    (count) =>
      document.querySelectorAll('article.turn').length === count &&
      !document.querySelector('.connection-banner') &&
      document.querySelector('.conversation-usage') !== null,
    { polling: 100, timeout: 30_000 },
    turns,
  );
}

describe('token usage the provider reported, per turn and per conversation', () => {
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

  it.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const)(
    '%s: the panel and the session drawer show the sums of what the server reported, after a reload and a worker restart',
    async (format) => {
      await configureProfile(session, scriptedEndpointSettings(format, server.origin));
      server.setScript(script);
      const panel = await session.openPanel();
      await panel.click('button::-p-text(New chat)');
      expect(await manualTool(panel, 'openTarget', { targetId: 'particles' })).toMatchObject({ ok: true });
      // Opening the target brought the stage tab to the front; the user types in the panel.
      await panel.bringToFront();

      await sendMessage(panel, 'How fast are the particles?');
      expect(await waitForTurnEnd(panel, 0)).toBe('completed');
      await sendMessage(panel, 'Anything else?');
      expect(await waitForTurnEnd(panel, 1)).toBe('completed');

      const firstTurn = asReported(format, sum(toolStep, textStep));
      const lastTurn = asReported(format, sum(secondTurn));
      const conversation = asReported(format, sum(toolStep, textStep, secondTurn));
      const expected: UsageView = { turns: [firstTurn, lastTurn], conversation };

      expect(await usageView(panel)).toEqual(expected);
      expect(await drawerUsage(panel)).toEqual(conversation);

      await panel.reload();
      await waitUntilCaughtUp(panel, 2);
      expect(await usageView(panel)).toEqual(expected);

      await session.stopServiceWorker();
      await panel.reload();
      await waitUntilCaughtUp(panel, 2);
      expect(await usageView(panel)).toEqual(expected);
      expect(await drawerUsage(panel)).toEqual(conversation);
      await panel.close();
    },
  );
});
