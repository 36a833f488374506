/** The text of the invisible user message that asks the model to go on with the same turn. */
export const continuationText = 'Continue.';

export function isContinuationText(text: string): boolean {
  return text === continuationText;
}
