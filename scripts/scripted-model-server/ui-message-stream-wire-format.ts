import { z } from 'zod';
import { retryAfterHeader } from './retry-after-header';
import { scriptedModelId } from './scripted-model-id';
import { sseFrame, sseFrameWithData } from './sse-frame';
import { encodeUIMessageStream } from './ui-message-stream-encoder';
import { uiMessageRoles, uiMessageSchema } from './ui-message-roles';
import { scriptedErrorMessage } from './scripted-error-message';
import type { WireFormat } from './wire-format';

const chatRequestSchema = z.looseObject({
  id: z.string().optional(),
  messages: z.array(uiMessageSchema),
  trigger: z.string().optional(),
  model: z.string().optional(),
});

/**
 * `POST /api/chat`, the body `DefaultChatTransport` sends: `{ id, messages,
 * trigger, messageId, …body }`. Always streams. HTTP errors are plain text,
 * which the transport turns into `new Error(text)`.
 */
export const uiMessageStreamWireFormat: WireFormat = {
  name: 'ui-message-stream',
  toolCallIdPrefix: 'call_',
  streamContentType: 'text/event-stream',
  parseRequest(body) {
    const parsed = chatRequestSchema.safeParse(body);
    if (!parsed.success) return { success: false, message: z.prettifyError(parsed.error) };
    const { messages, model } = parsed.data;
    const lastMessage = messages.at(-1);
    const continuedMessageId = lastMessage?.role === 'assistant' ? lastMessage.id : undefined;
    return {
      success: true,
      request: {
        messages: uiMessageRoles(messages),
        model: model ?? scriptedModelId,
        stream: true,
        promptCharacters: JSON.stringify(messages).length,
        encodeStream: (events, context) =>
          encodeUIMessageStream(events, { messageId: continuedMessageId ?? `msg_scripted_${context.replyNumber}` }),
      },
    };
  },
  errorReply(error) {
    return {
      contentType: 'text/plain; charset=utf-8',
      body: error.message ?? scriptedErrorMessage(error.status),
      headers: retryAfterHeader(error.retryDelaySeconds),
    };
  },
  replyHeaders: () => ({ 'x-vercel-ai-ui-message-stream': 'v1', 'x-accel-buffering': 'no' }),
  malformedFrame: 'data: {not json}\n\n',
  streamErrorFrames: (message) => [sseFrame({ type: 'error', errorText: message }), sseFrameWithData('[DONE]')],
};
