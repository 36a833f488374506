import type { Marionette } from './marionette';
import { until } from './sidebar-page';

const SHOWN =
  "return JSON.stringify([...document.querySelectorAll('article.turn .user-message, article.turn .assistant-message')].map((node) => node.textContent.trim())) + (document.querySelector('article.turn[data-status=\"running\"]') ? ' running' : '');";

/** Waits until the panel shows exactly these messages, in order, with no turn running. */
export function untilPanelShows(marionette: Marionette, texts: string[]): Promise<true> {
  return until(
    `the panel to show ${texts.join(' / ')}`,
    async () => (await marionette.execute<string>(SHOWN)) === JSON.stringify(texts),
  );
}

/** Edits the user message of the panel's turn at `turnIndex` (from 0) to `text` and resends it. */
export async function editAndResend(marionette: Marionette, turnIndex: number, text: string): Promise<void> {
  await until('the edit box', () =>
    marionette.execute<boolean>(
      `const button = document.querySelectorAll('article.turn')[arguments[0]]?.querySelector('button[aria-label="Edit and resend"]');
       if (!button) return false;
       button.click();
       return true;`,
      [turnIndex],
    ),
  );
  await until('the edited text to be resent', () =>
    marionette.execute<boolean>(
      `const box = document.querySelector('textarea[aria-label="Edit message"]');
       if (!box) return false;
       Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, arguments[0]);
       box.dispatchEvent(new Event('input', { bubbles: true }));
       const resend = [...document.querySelectorAll('.user-edit button')].find((button) => button.textContent === 'Resend');
       if (!resend || resend.disabled) return false;
       resend.click();
       return true;`,
      [text],
    ),
  );
}
