import { itemOf, type ClientState, type TurnState } from '../state/client-state';

const USER_MESSAGE_PX = 40;
const TOOL_CARD_PX = 36;
const OTHER_ENTRY_PX = 24;
const LINE_PX = 16;

function textHeight(text: string): number {
  let lines = 0;
  for (const line of text.split('\n')) if (line.trim()) lines += 1;
  return lines * LINE_PX;
}

/**
 * A turn's height before it is measured, from what it holds, kept below what it renders to. A fixed guess is far
 * off for turns with tool cards, code and tables; a guess that is too large makes the list shorter once measured,
 * and the browser then moves a list at its end up on its own, which reads like the reader scrolling away.
 */
export function estimateTurnHeight(
  turn: TurnState | undefined,
  state: Pick<ClientState, 'items' | 'streaming'>,
): number {
  if (!turn) return USER_MESSAGE_PX;
  let height = USER_MESSAGE_PX;
  for (const entry of turn.entries) {
    if (entry.kind === 'item') height += textHeight(itemOf(state, entry.key)?.text ?? '');
    else if (entry.kind === 'tool') height += TOOL_CARD_PX;
    else height += OTHER_ENTRY_PX;
  }
  return height;
}
