import type { TurnHandle } from './turn-driver';
import { errorText } from '../protocol/error-text';

/** What the panel shows about a turn it started or added to. */
export interface TurnFeedback {
  /** The text did not reach the log: it goes back to the composer, so nothing the user typed is lost. */
  unsent(text: string): void;
  failed(message: string): void;
  /** The turn is over, however it ended. */
  ended(): void;
}

/** Reports a turn's failures as they come: the message not recorded, the turn failed, the turn over. */
export function followTurn(handle: TurnHandle, text: string, feedback: TurnFeedback): void {
  handle.recorded.catch(() => feedback.unsent(text));
  handle.done.catch((reason: unknown) => feedback.failed(errorText(reason))).finally(() => feedback.ended());
}

/**
 * Adds to a running turn, as the steer `commandId` when given; a steer that could not be submitted says so and goes
 * back to the composer.
 */
export function steerTurn(
  handle: TurnHandle,
  text: string,
  feedback: Omit<TurnFeedback, 'ended'>,
  commandId?: string,
): void {
  handle.steer(text, commandId).catch((reason: unknown) => {
    feedback.failed(`Could not add to the turn: ${errorText(reason)}`);
    feedback.unsent(text);
  });
}
