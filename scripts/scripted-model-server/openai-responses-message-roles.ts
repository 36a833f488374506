import { z } from 'zod';
import { isContinuationText } from './continuation-text';
import { messageText } from './message-text';
import type { ScriptMessage } from './script';

const inputItemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.unknown().optional(),
});

/**
 * Responses `input` items → neutral roles. One reply is several items (a
 * reasoning item, a message, one function_call per call), so a run of
 * assistant-side items counts as one assistant message. Assistant-side:
 * assistant messages, `function_call`, `reasoning`, other `*_call` items and
 * `item_reference` (the AI SDK sends those for its stored output items when
 * `store` is on). `function_call_output` and other `*_output` items are tool
 * results; system and developer messages are `system`.
 */
export function openAIResponsesMessageRoles(input: string | readonly unknown[]): ScriptMessage[] {
  if (typeof input === 'string') return [userRole(input)];
  const roles: ScriptMessage[] = [];
  for (const item of input) {
    const role = itemRole(item);
    if (role === undefined) continue;
    if (role.role === 'assistant' && roles.at(-1)?.role === 'assistant') continue;
    roles.push(role);
  }
  return roles;
}

function itemRole(item: unknown): ScriptMessage | undefined {
  const parsed = inputItemSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const { type = 'message', role, content } = parsed.data;
  if (type === 'message' && role !== undefined) {
    if (role === 'user') return userRole(messageText(content));
    return { role: role === 'assistant' ? 'assistant' : 'system' };
  }
  if (type === 'item_reference' || type === 'reasoning' || type.endsWith('_call')) return { role: 'assistant' };
  if (type.endsWith('_output')) return { role: 'tool' };
  return undefined;
}

function userRole(text: string): ScriptMessage {
  return isContinuationText(text) ? { role: 'user', continuation: true } : { role: 'user' };
}
