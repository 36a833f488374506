/** What pressing Enter or Send does with the composer's message. */
export type ComposerPress = 'nothing' | 'send' | 'add-to-turn' | 'send-once-loaded';

export interface ComposerCondition {
  /** There is something to send: text, or files (ready) while no turn runs. */
  canSend: boolean;
  /** No endpoint: nothing can be sent. */
  disabled: boolean;
  /** The conversation's history has not arrived yet. */
  loading: boolean;
  /** This panel drives a turn: what is sent is added to it. */
  running: boolean;
}

/**
 * A press while the conversation loads is kept and carried out once it has loaded (its history must go with the
 * message), rather than ignored with the message left in the box.
 */
export function composerPress({ canSend, disabled, loading, running }: ComposerCondition): ComposerPress {
  if (!canSend || disabled) return 'nothing';
  if (loading) return 'send-once-loaded';
  return running ? 'add-to-turn' : 'send';
}
