import { isContinuationText } from './continuation-text';
import { messageText } from './message-text';
import type { ScriptMessage } from './script';

export interface OpenAIChatMessage {
  readonly role: string;
  readonly content?: unknown;
}

/** Chat messages already have the neutral roles; only a user "Continue." becomes a continuation. */
export function openAIChatMessageRoles(messages: readonly OpenAIChatMessage[]): ScriptMessage[] {
  return messages.map((message) =>
    message.role === 'user' && isContinuationText(messageText(message.content))
      ? { role: 'user', continuation: true }
      : { role: message.role },
  );
}
