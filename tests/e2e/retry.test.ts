import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import {
  clickInCard,
  currentSessionId,
  pendingApproval,
  readStoredLog,
  sendMessage,
  waitForTurnEnd,
} from './extension-harness';
import { extensionSuite } from './extension-suite';

const SCREENSHOTS = resolve(import.meta.dirname, '../screenshots');

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

async function rowKinds(panel: Page): Promise<string[]> {
  return panel.$$eval('.run-timeline .timeline-row', (rows) => rows.map((row) => row.getAttribute('data-kind') ?? ''));
}

describe('retrying a failed tool call, and the run timeline, in Chromium', () => {
  const suite = extensionSuite({
    model: () =>
      startScriptedModelServer({
        script: {
          turns: [
            {
              steps: [
                { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'faulty' } }] },
                { toolCalls: [{ name: 'setParameter', arguments: { param: 'fault', value: 'fail-once' } }] },
                { text: 'The target was not ready, so nothing changed.' },
              ],
            },
            // The retrying turn: its note, then the attempt's call and result, so the model answers at step 1.
            { steps: [{ text: 'Not used.' }, { text: 'It worked this time.' }] },
          ],
        },
      }),
  });
  let panel: Page;

  beforeAll(async () => {
    panel = await suite.session.openPanel();
  });

  it('retries the failed call after asking again, and the model next reads the retried result; the log keeps both', async () => {
    const { model } = suite;
    await sendMessage(panel, 'Set the fault to fail-once.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const failedCard = 'section.tool-card[aria-label="Tool call setParameter"][data-status="failed"]';
    await panel.waitForSelector(`${failedCard} .tool-retry-button`);
    expect(model.requests).toHaveLength(3);
    // The stage tab opened in front of the panel; headless Chromium delivers no clicks to a tab behind.
    await panel.bringToFront();
    await panel.click(`${failedCard} .tool-retry-button`);

    // setParameter is not read-only: the retry asks, although the policy lets its first call run unasked.
    const requestId = await pendingApproval(panel);
    expect(model.requests).toHaveLength(3);
    await clickInCard(panel, requestId, 'Allow');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');

    const log = await readStoredLog(panel, await currentSessionId(panel));
    const retried = log.filter((row) => row.type === 'tool/retried');
    expect(retried).toHaveLength(1);
    const [{ toolCallId: firstId, attemptId }] = retried;
    const outcomes = log
      .filter((row) => row.type === 'tool/failed' || row.type === 'tool/completed')
      .map((row) => [row.type, (row as unknown as { toolCallId: string }).toolCallId]);
    expect(outcomes).toContainEqual(['tool/failed', firstId]);
    expect(outcomes).toContainEqual(['tool/completed', attemptId]);
    const approvals = log.filter((row) => row.type === 'approval/requested') as unknown as { toolCallId: string }[];
    expect(approvals.map((row) => row.toolCallId)).toEqual([attemptId]);

    const retryRequest = (model.requests.at(-1)!.body as { messages: ChatMessage[] }).messages;
    const results = retryRequest.filter((message) => message.role === 'tool');
    expect(results.at(-2)).toMatchObject({ tool_call_id: firstId });
    expect(JSON.parse(String(results.at(-2)!.content))).toMatchObject({ ok: false });
    expect(results.at(-1)).toMatchObject({ tool_call_id: attemptId });
    expect(JSON.parse(String(results.at(-1)!.content))).toMatchObject({ ok: true });

    const cards = await panel.$$eval('section.tool-card[aria-label="Tool call setParameter"]', (sections) =>
      sections.map((section) => [section.getAttribute('data-status'), section.textContent?.includes('attempt 2')]),
    );
    expect(cards).toEqual([
      ['failed', false],
      ['done', true],
    ]);
    expect(await panel.$('.tool-retry-button')).toBeNull();
    console.log(`[e2e] retry: first attempt ${firstId} failed, attempt ${attemptId} asked, was allowed and completed`);
  });

  it('shows the run as a timeline: every request, call and approval, filtered by kind and exported as JSON', async () => {
    await panel.click('button.timeline-open');
    await panel.waitForSelector('.run-timeline .timeline-row');
    const kinds = await rowKinds(panel);
    expect(kinds.filter((kind) => kind === 'model-request')).toHaveLength(4);
    expect(kinds.filter((kind) => kind === 'tool-call')).toHaveLength(3);
    expect(kinds.filter((kind) => kind === 'approval')).toHaveLength(1);
    const approval = await panel.$eval('.timeline-row[data-kind="approval"]', (row) => row.textContent ?? '');
    expect(approval).toContain('decided by you');
    const request = await panel.$eval('.timeline-row[data-kind="model-request"]', (row) => row.textContent ?? '');
    expect(request).toMatch(/took \d/);
    // Each turn heads its rows: the message, then the retry, each with how it ended and its totals.
    const turns = await panel.$$eval('.run-timeline .timeline-turn', (sections) =>
      sections.map((section) => ({
        start: section.getAttribute('data-start'),
        heading: section.querySelector('.timeline-turn-head')?.textContent ?? '',
        rows: section.querySelectorAll('.timeline-row').length,
      })),
    );
    expect(turns.map((turn) => turn.start)).toEqual(['message', 'retry-call']);
    expect(turns[0]?.heading).toMatch(/^Turn 1Set the fault to fail-once\.completed.*took .*3 requests · 2 tool calls/);
    expect(turns[1]?.heading).toMatch(/^Turn 2Retry of setParametercompleted.*1 request · 1 tool call/);
    expect(turns.reduce((sum, turn) => sum + turn.rows, 0)).toBe(kinds.length);
    await panel.setViewport({ width: 420, height: 820 });
    await panel.screenshot({ path: resolve(SCREENSHOTS, 'timeline.png') as `${string}.png` });

    await panel.click('.timeline-filter[data-kind="approval"]');
    await panel.waitForFunction(
      () =>
        [...document.querySelectorAll('.run-timeline .timeline-row')].every(
          (row) => row.getAttribute('data-kind') === 'approval',
        ),
      { polling: 50, timeout: 5_000 },
    );
    expect(await rowKinds(panel)).toEqual(['approval']);
    const exported = await panel.$eval('a.run-timeline-export', async (link) => {
      const response = await fetch((link as HTMLAnchorElement).href);
      return { name: link.getAttribute('download'), text: await response.text() };
    });
    expect(exported.name).toMatch(/^splitbrain-timeline-.+\.json$/);
    const timeline = JSON.parse(exported.text) as {
      format: string;
      turns: { start: string }[];
      entries: { kind: string; decidedBy?: string }[];
    };
    expect(timeline.format).toBe('splitbrain-timeline');
    expect(timeline.entries).toEqual([expect.objectContaining({ kind: 'approval', decidedBy: 'user' })]);
    // The approval was asked in the retrying turn: the export names that turn alone.
    expect(timeline.turns.map((turn) => turn.start)).toEqual(['retry-call']);
  });
});
