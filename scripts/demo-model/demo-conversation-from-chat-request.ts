import { z } from 'zod';
import { isContinuationText } from '../scripted-model-server/continuation-text';
import { messageText } from '../scripted-model-server/message-text';
import type { DemoConversation, DemoMessage } from './demo-conversation';

const chatRequestSchema = z.looseObject({
  tools: z.array(z.looseObject({ function: z.looseObject({ name: z.string() }) })).optional(),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: z.unknown().optional(),
      tool_call_id: z.string().optional(),
      tool_calls: z
        .array(z.looseObject({ id: z.string(), function: z.looseObject({ name: z.string(), arguments: z.string() }) }))
        .nullish(),
    }),
  ),
});

type ChatMessage = z.infer<typeof chatRequestSchema>['messages'][number];

/** An OpenAI chat completions request body as the demo model reads it; undefined when it is not one. */
export function demoConversationFromChatRequest(body: unknown): DemoConversation | undefined {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) return undefined;
  return {
    tools: (parsed.data.tools ?? []).map((tool) => tool.function.name),
    messages: parsed.data.messages.flatMap(demoMessage),
  };
}

function demoMessage(message: ChatMessage): DemoMessage[] {
  const text = messageText(message.content);
  switch (message.role) {
    case 'user':
      return isContinuationText(text) ? [] : [{ role: 'user', text }];
    case 'assistant':
      return [
        {
          role: 'assistant',
          text,
          toolCalls: (message.tool_calls ?? []).map((call) => ({
            id: call.id,
            name: call.function.name,
            arguments: parseJson(call.function.arguments),
          })),
        },
      ];
    case 'tool':
      return [{ role: 'tool', toolCallId: message.tool_call_id ?? '', output: parseJson(text) }];
    default:
      return [];
  }
}

/** The value is only read through zod schemas afterwards; text that is not JSON stays text. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
