import { z } from 'zod';
import { anthropicErrorBody, anthropicErrorTypeForStatus } from './anthropic-error-body';
import { anthropicMessageRoles } from './anthropic-message-roles';
import {
  encodeAnthropicMessage,
  encodeAnthropicMessagesStream,
  type AnthropicMessagesEncoderContext,
} from './anthropic-messages-encoder';
import { retryAfterHeader } from './retry-after-header';
import { scriptedModelId } from './scripted-model-id';
import { sseFrame } from './sse-frame';
import { scriptedErrorMessage } from './scripted-error-message';
import type { ReplyContext, WireFormat } from './wire-format';

const anthropicCreditBalanceMessage =
  'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.';

const messagesRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(z.unknown())]) })),
  stream: z.boolean().nullish(),
});

const encoderContext = (context: ReplyContext): AnthropicMessagesEncoderContext => ({
  messageId: `msg_scripted_${context.replyNumber}`,
  model: context.model,
  usage: context.usage,
});

/** `POST /v1/messages`, streaming or not. */
export const anthropicMessagesWireFormat: WireFormat = {
  name: 'anthropic-messages',
  toolCallIdPrefix: 'toolu_',
  streamContentType: 'text/event-stream; charset=utf-8',
  parseRequest(body) {
    const parsed = messagesRequestSchema.safeParse(body);
    if (!parsed.success) return { success: false, message: z.prettifyError(parsed.error) };
    const messagesRequest = parsed.data;
    return {
      success: true,
      request: {
        messages: anthropicMessageRoles(messagesRequest.messages),
        model: messagesRequest.model ?? scriptedModelId,
        stream: messagesRequest.stream === true,
        promptCharacters: JSON.stringify(messagesRequest.messages).length,
        encodeStream: (events, context) => encodeAnthropicMessagesStream(events, encoderContext(context)),
        encodeComplete: (events, context) => encodeAnthropicMessage(events, encoderContext(context)),
      },
    };
  },
  errorReply(error) {
    const defaultMessage =
      error.quotaExhausted === true ? anthropicCreditBalanceMessage : scriptedErrorMessage(error.status);
    const body = anthropicErrorBody(error.message ?? defaultMessage, anthropicErrorTypeForStatus(error.status));
    return {
      contentType: 'application/json',
      body: JSON.stringify(body),
      headers: retryAfterHeader(error.retryDelaySeconds),
    };
  },
  replyHeaders: (context) => ({ 'request-id': `req_scripted_${context.replyNumber}` }),
  malformedFrame: 'event: content_block_delta\ndata: {not json}\n\n',
  // How the API reports an overload after the stream started.
  streamErrorFrames: (message) => [sseFrame(anthropicErrorBody(message, 'overloaded_error'), { event: 'error' })],
};
