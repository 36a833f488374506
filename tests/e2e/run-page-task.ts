import type { Page } from 'puppeteer-core';
import { sendMessage } from './extension-harness';

/** The newest turn's status once it has ended; approval cards on the way are answered by `decide`. */
export async function runTask(
  panel: Page,
  text: string,
  decide: (summary: string) => 'Allow' | 'Deny' = () => 'Allow',
): Promise<{ status: string; asked: string[] }> {
  await panel.bringToFront();
  await sendMessage(panel, text);
  const asked: string[] = [];
  for (;;) {
    const handle = await panel.waitForFunction(
      (sent) => {
        const turn = [...document.querySelectorAll('article.turn')].at(-1);
        if (!turn?.textContent?.includes(sent)) return false;
        const card = [...turn.querySelectorAll('section.approval-card[data-status="pending"]')].at(-1);
        if (card)
          return {
            card: card.querySelector('.request-summary')?.textContent ?? '',
            id: card.getAttribute('data-request-id'),
          };
        const status = turn.getAttribute('data-status');
        return status && status !== 'running' ? { status } : false;
      },
      { timeout: 30_000, polling: 50 },
      text,
    );
    const state = (await handle.jsonValue()) as { card?: string; id?: string; status?: string };
    if (state.status) {
      if (process.env.PAGE_TASKS_DEBUG) console.log(await panel.$eval('body', (body) => body.innerText));
      return { status: state.status, asked };
    }
    // `PAGE_APPROVAL_SCREENSHOT=path` saves the first approval card (the README's picture of one).
    const screenshotPath = process.env.PAGE_APPROVAL_SCREENSHOT;
    if (screenshotPath && asked.length === 0 && !state.card?.startsWith('Open'))
      await (
        await panel.$(`section.approval-card[data-request-id="${state.id}"]`)
      )?.screenshot({ path: screenshotPath });
    asked.push(state.card ?? '');
    const answer = decide(state.card ?? '');
    await panel.evaluate(
      (label, id) => {
        const card = document.querySelector(`section.approval-card[data-request-id="${id}"]`);
        const button = [...(card?.querySelectorAll('button') ?? [])].find(
          (candidate) => candidate.textContent === label,
        );
        (button as HTMLButtonElement | undefined)?.click();
      },
      answer,
      state.id,
    );
    await panel.waitForFunction(
      (id) =>
        document.querySelector(`section.approval-card[data-request-id="${id}"]`)?.getAttribute('data-status') !==
        'pending',
      // Polled by timer, not by animation frame: the panel's tab is hidden while a tab the agent opened is in front.
      { timeout: 10_000, polling: 50 },
      state.id,
    );
  }
}
