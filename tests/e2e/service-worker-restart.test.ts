import { describe, expect, it } from 'vitest';
import { currentSessionId, readStoredLog, sendMessage, waitForStoredRows, waitForTurnEnd } from './extension-harness';
import { workerStopHarness } from './worker-stop-harness';

// The seeds of two and three tool steps are files of their own, so that the e2e workers share the runs.
describe('the service worker is stopped at every durable write of a one-step run, and in flight', () => {
  const harness = workerStopHarness(1);

  it('executes no tool call twice, loses no acknowledged event, and ends every turn in a final state the panel shows', async () => {
    await harness.expectNothingLostAtEveryWrite([1]);
  }, 600_000);

  it('shows a call cut off in flight as "outcome unknown" and never runs it again', async () => {
    harness.server().setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'openTarget', arguments: { targetId: 'held-counter' } }] },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'count', value: 7 } }] },
            { text: 'I could not confirm the change.' },
          ],
        },
      ],
    });
    const panel = await harness.session().openPanel();
    await panel.click('button::-p-text(New chat)');
    await sendMessage(panel, 'Set the held counter to 7.');
    const sessionId = await currentSessionId(panel);
    expect(await waitForStoredRows(harness.inspector(), sessionId, 'tool/started', 2)).toBe(2);
    // The runtime logs tool/started before it sends the command: a stop in between leaves a call that provably
    // never reached the stage, which is run then, once. Cut off in flight means the stage has the command.
    const stage = await harness.session().stagePage();
    await stage.waitForFunction(() => Number(document.documentElement.dataset.receivedCalls ?? 0) >= 2, {
      polling: 20,
      timeout: 10_000,
    });
    await harness.session().stopServiceWorker();
    expect(await waitForTurnEnd(panel, 0, 45_000)).toBe('completed');
    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => item.getAttribute('data-status')),
    );
    const cardText = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => item.textContent).join(' | '),
    );
    expect(cards, cardText).toEqual(['done', 'unknown']);
    // The target stays unready until now, so the call is in flight however long the restart took; once released,
    // the stage delivers the command it had received, and only that once.
    const frame = await harness.session().targetFrame('held-counter');
    await frame.evaluate(() => (window as unknown as { releaseHeldCounter(): void }).releaseHeldCounter());
    await frame.waitForFunction(
      () => (window as unknown as { SplitbrainBridge: { isReady(): boolean } }).SplitbrainBridge.isReady(),
      { polling: 100, timeout: 10_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      await frame.evaluate(
        () =>
          (window as unknown as { SplitbrainBridge: { debug: { applyCount: number } } }).SplitbrainBridge.debug
            .applyCount,
      ),
    ).toBe(1);
    const rows = await readStoredLog(harness.inspector(), sessionId);
    expect(rows.filter((row) => row.type === 'tool/unknown')).toHaveLength(1);
    const lastBody = harness.server().requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(lastBody.messages.filter((message) => message.role === 'tool').at(-1)!.content).toContain('Outcome unknown');
    await panel.close();
  });
});
