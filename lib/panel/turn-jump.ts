/** A request to show one turn of a conversation (a search result was opened); `nonce` tells two requests apart. */
export interface TurnJump {
  sessionId: string;
  /** The turn's place in the conversation, 0 for the first: its row in the list, loaded or not. */
  turnPosition: number;
  /** The found turn: when it is on a branch not in view, that branch is shown. */
  turnId?: string;
  nonce: number;
}
