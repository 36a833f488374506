import { randomUUID } from 'node:crypto';
import type { StreamableStep } from '../scripted-model-server/script';
import type { WireFormatName } from '../scripted-model-server/wire-format';
import { demoConversationFromChatRequest } from './demo-conversation-from-chat-request';
import { demoReply } from './demo-model';
import type { DemoSchema } from './demo-tool-results';

/** The model id the demo endpoint profile names. */
export const demoModelId = 'offline-demo';

/**
 * The offline demo model as a reply of the model server: it speaks the OpenAI chat completions API. Tool call
 * ids are fresh for every reply, since the runtime runs a call at most once per id and a retried turn repeats
 * the same conversation. `knownTargets` let it say which target has what the open one lacks.
 */
export function demoModelResponder({
  knownTargets = [],
  newId = randomUUID,
}: { knownTargets?: readonly DemoSchema[]; newId?: () => string } = {}) {
  return (body: unknown, format: WireFormatName): StreamableStep => {
    if (format !== 'openai-chat') return { text: 'The offline demo speaks only the OpenAI chat completions API.' };
    const conversation = demoConversationFromChatRequest(body);
    if (!conversation) return { text: 'The offline demo could not read this request.' };
    const reply = demoReply(conversation, knownTargets);
    if (reply.kind === 'text') return { text: reply.text };
    return {
      toolCalls: reply.calls.map((call) => ({
        name: call.name,
        arguments: call.arguments,
        id: `call_demo_${newId()}`,
      })),
    };
  };
}
