import type { TurnState } from '../state/client-state';

/** What a screen reader hears when the last turn changes state; token-by-token text is never announced. */
export function turnAnnouncement(turn: Pick<TurnState, 'status' | 'reason' | 'retry'> | undefined): string {
  if (!turn) return '';
  if (turn.status === 'running')
    return turn.retry ? `Connection problem, retrying: ${turn.retry.reason}` : 'The assistant is responding.';
  if (turn.status === 'completed') return 'The assistant finished responding.';
  if (turn.status === 'aborted') return 'Stopped.';
  if (turn.status === 'paused') return 'Paused. Act on the page, then press Resume.';
  return `The response was interrupted${turn.reason ? `: ${turn.reason}` : '.'} Press Retry to try again.`;
}
