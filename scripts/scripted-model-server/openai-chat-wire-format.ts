import { z } from 'zod';
import {
  encodeOpenAIChatCompletion,
  encodeOpenAIChatStream,
  type OpenAIChatEncoderContext,
} from './openai-chat-encoder';
import { openAIChatMessageRoles } from './openai-chat-message-roles';
import { openAIErrorBody, openAIErrorTypeForStatus, openAIQuotaExhaustedBody } from './openai-error-body';
import { retryAfterHeader } from './retry-after-header';
import { scriptedModelId } from './scripted-model-id';
import { sseFrame } from './sse-frame';
import { scriptedErrorMessage } from './scripted-error-message';
import type { ReplyContext, WireFormat } from './wire-format';

const chatCompletionRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown().optional() })),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});

/** `POST /v1/chat/completions`, streaming or not. */
export const openAIChatWireFormat: WireFormat = {
  name: 'openai-chat',
  toolCallIdPrefix: 'call_',
  streamContentType: 'text/event-stream; charset=utf-8',
  parseRequest(body) {
    const parsed = chatCompletionRequestSchema.safeParse(body);
    if (!parsed.success) return { success: false, message: z.prettifyError(parsed.error) };
    const chatRequest = parsed.data;
    const includeUsageChunk = chatRequest.stream_options?.include_usage === true;
    const model = chatRequest.model ?? scriptedModelId;
    return {
      success: true,
      request: {
        messages: openAIChatMessageRoles(chatRequest.messages),
        model,
        stream: chatRequest.stream === true,
        promptCharacters: JSON.stringify(chatRequest.messages).length,
        encodeStream: (events, context) =>
          encodeOpenAIChatStream(events, { ...chatContext(context), includeUsageChunk }),
        encodeComplete: (events, context) => encodeOpenAIChatCompletion(events, chatContext(context)),
      },
    };
  },
  errorReply(error) {
    const body =
      error.quotaExhausted === true
        ? openAIQuotaExhaustedBody(error.message)
        : openAIErrorBody(error.message ?? scriptedErrorMessage(error.status), openAIErrorTypeForStatus(error.status));
    return {
      contentType: 'application/json',
      body: JSON.stringify(body),
      headers: retryAfterHeader(error.retryDelaySeconds),
    };
  },
  replyHeaders: (context) => ({ 'x-request-id': `req_scripted_${context.replyNumber}` }),
  malformedFrame: 'data: {not json}\n\n',
  streamErrorFrames: (message) => [sseFrame(openAIErrorBody(message, 'server_error'))],
};

function chatContext(context: ReplyContext): OpenAIChatEncoderContext {
  return {
    completionId: `chatcmpl-scripted-${context.replyNumber}`,
    created: context.created,
    model: context.model,
    usage: context.usage,
  };
}
