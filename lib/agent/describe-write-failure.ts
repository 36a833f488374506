import { isBudgetRefusal } from '../usage/budget-state';
import { errorText } from '../protocol/error-text';

/** Says why events could not be recorded, so the panel reports a full disk as such rather than a bare exception name. */
export function describeWriteFailure(error: unknown): string {
  const detail = errorText(error, { nameWhenEmpty: true }).trim();
  if (isBudgetRefusal(detail)) return detail;
  if (/quota/i.test(detail))
    return `The conversation could not be saved: the browser has no storage space left for the extension (${detail}). Free some space or delete old conversations, then retry.`;
  return `The conversation could not be saved: ${detail}`;
}
