import { z } from 'zod';
import { isContinuationText } from './continuation-text';
import { messageText } from './message-text';
import type { ScriptMessage } from './script';

const contentBlockSchema = z.looseObject({ type: z.string() });

export interface AnthropicMessage {
  readonly role: string;
  readonly content: string | readonly unknown[];
}

/**
 * Anthropic messages → neutral roles. Tool results travel as `tool_result`
 * blocks inside user messages, and the AI SDK merges a tool result and a
 * following user text into one user message; such a message becomes `tool`
 * followed by `user`. A user message of only tool results is just `tool`.
 */
export function anthropicMessageRoles(messages: readonly AnthropicMessage[]): ScriptMessage[] {
  return messages.flatMap((message): ScriptMessage[] => {
    if (message.role !== 'user') return [{ role: message.role }];
    if (typeof message.content === 'string') return [userRole(message.content)];
    const blocks = message.content
      .map((block) => contentBlockSchema.safeParse(block))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
    const toolResults = blocks.filter((block) => block.type === 'tool_result');
    const userBlocks = blocks.filter((block) => block.type !== 'tool_result');
    const roles: ScriptMessage[] = [];
    if (toolResults.length > 0) roles.push({ role: 'tool' });
    if (userBlocks.length > 0 || toolResults.length === 0) roles.push(userRole(messageText(userBlocks)));
    return roles;
  });
}

function userRole(text: string): ScriptMessage {
  return isContinuationText(text) ? { role: 'user', continuation: true } : { role: 'user' };
}
