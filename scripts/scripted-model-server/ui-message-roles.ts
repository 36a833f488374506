import { z } from 'zod';
import { isContinuationText } from './continuation-text';
import { messageText } from './message-text';
import type { ScriptMessage } from './script';

export const uiMessageSchema = z.looseObject({
  id: z.string().optional(),
  role: z.string(),
  metadata: z.unknown().optional(),
  parts: z.array(z.looseObject({ type: z.string() })),
});

export type UIMessageLike = z.infer<typeof uiMessageSchema>;

const continuationMetadataSchema = z.looseObject({ continuation: z.literal(true) });

/**
 * AI SDK UI messages → neutral roles. useChat keeps all steps of a turn in one
 * assistant message and marks each step with a `step-start` part, so an
 * assistant message counts as that many steps; one without `step-start` parts
 * counts as one step (zero if it has no parts at all). Tool outputs live in the
 * same message (`tool-<name>` parts with state `output-available`) and need no
 * role of their own. A user message is a continuation, starting no turn, when
 * its `metadata.continuation` is true or its text is exactly "Continue.".
 */
export function uiMessageRoles(messages: readonly UIMessageLike[]): ScriptMessage[] {
  return messages.flatMap((message): ScriptMessage[] => {
    if (message.role === 'assistant') {
      const stepStarts = message.parts.filter((part) => part.type === 'step-start').length;
      const steps = stepStarts > 0 ? stepStarts : Math.min(message.parts.length, 1);
      return Array.from({ length: steps }, () => ({ role: 'assistant' }));
    }
    if (message.role === 'user') {
      const isContinuation =
        continuationMetadataSchema.safeParse(message.metadata).success ||
        isContinuationText(messageText(message.parts.filter((part) => part.type === 'text')));
      return [isContinuation ? { role: 'user', continuation: true } : { role: 'user' }];
    }
    return [{ role: message.role }];
  });
}
