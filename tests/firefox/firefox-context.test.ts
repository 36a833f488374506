import { describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { COMPACTION_REQUEST } from '../../lib/context/summarise-history';
import { firefoxSuite } from './firefox-suite';
import { openPanel, sendFromComposer, until } from './sidebar-page';

const WINDOW_TOKENS = 12_000;
const RESERVE_TOKENS = 1_000;
const MESSAGES = 4;
const SUMMARY = 'SUMMARY: numbered records were sent and noted.';

function records(index: number): string {
  return Array.from(
    { length: 200 },
    (_, line) => `Record ${index}-${line} keeps value ${(index * 7919 + line * 104_729) % 100_000}.`,
  ).join(' ');
}

const isSummaryRequest = (body: unknown) => JSON.stringify(body).includes(COMPACTION_REQUEST);

describe('context in Firefox ESR', () => {
  const suite = firefoxSuite({
    server: () =>
      startScriptedModelServer({
        script: { turns: [{ steps: [{ text: 'Noted.' }] }] },
        contextWindowTokens: WINDOW_TOKENS,
        respond: (body) => (isSummaryRequest(body) ? { text: SUMMARY } : undefined),
      }),
  });

  it('compacts a conversation longer than the window from the sidebar page, and the divider and meter show it', async () => {
    const { marionette, base, server } = suite;
    await openPanel(marionette, base, server.url, {
      contextWindowTokens: WINDOW_TOKENS,
      outputReserveTokens: RESERVE_TOKENS,
    });
    for (let index = 0; index < MESSAGES; index++) {
      await sendFromComposer(marionette, records(index));
      await until(`turn ${index} to end`, () =>
        marionette.execute<boolean>(
          "const turn = [...document.querySelectorAll('article.turn')].at(-1); return !!turn?.textContent?.includes(arguments[0]) && turn.getAttribute('data-status') === 'completed';",
          [`Record ${index}-199 keeps`],
        ),
      );
    }
    const summaries = server.requests.filter((request) => isSummaryRequest(request.body)).length;
    const last = JSON.stringify(server.requests.filter((request) => !isSummaryRequest(request.body)).at(-1)!.body);
    const shown = await until('the divider and the meter', () =>
      marionette.execute<{ summary: string; compactions: string } | false>(
        `const divider = [...document.querySelectorAll('details.compaction-divider')].at(-1);
         const meter = document.querySelector('.context-meter');
         if (!divider || !meter) return false;
         divider.querySelector('summary').click();
         return { summary: divider.querySelector('pre.compaction-summary').textContent, compactions: meter.getAttribute('data-compactions') };`,
      ),
    );
    console.log(
      `[firefox] ${MESSAGES} messages at a ${WINDOW_TOKENS}-token window: ${summaries} summaries, ${server.overWindow.length} refused`,
    );
    expect(server.overWindow).toEqual([]);
    expect(summaries).toBeGreaterThanOrEqual(1);
    expect(shown).toEqual({ summary: SUMMARY, compactions: String(summaries) });
    expect(last).toContain(SUMMARY);
    expect(last).not.toContain('Record 0-0 keeps');
  }, 180_000);
});
