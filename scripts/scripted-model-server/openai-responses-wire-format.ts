import { z } from 'zod';
import { openAIErrorBody, openAIErrorTypeForStatus, openAIQuotaExhaustedBody } from './openai-error-body';
import {
  encodeOpenAIResponsesResponse,
  encodeOpenAIResponsesStream,
  type OpenAIResponsesEncoderContext,
} from './openai-responses-encoder';
import { openAIResponsesMessageRoles } from './openai-responses-message-roles';
import { retryAfterHeader } from './retry-after-header';
import { scriptedModelId } from './scripted-model-id';
import { sseFrame } from './sse-frame';
import { scriptedErrorMessage } from './scripted-error-message';
import type { ReplyContext, WireFormat } from './wire-format';

const responsesRequestSchema = z.looseObject({
  model: z.string().optional(),
  input: z.union([z.string(), z.array(z.unknown())]),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
});

/**
 * `POST /v1/responses`. The conversation must be in `input`: a
 * `previous_response_id` or `conversation` is not looked up, so only the items
 * sent count for picking the step.
 */
export const openAIResponsesWireFormat: WireFormat = {
  name: 'openai-responses',
  toolCallIdPrefix: 'call_',
  streamContentType: 'text/event-stream; charset=utf-8',
  parseRequest(body) {
    const parsed = responsesRequestSchema.safeParse(body);
    if (!parsed.success) return { success: false, message: z.prettifyError(parsed.error) };
    const responsesRequest = parsed.data;
    const encoderContext = (context: ReplyContext): OpenAIResponsesEncoderContext => ({
      responseId: `resp_scripted_${context.replyNumber}`,
      created: context.created,
      model: context.model,
      usage: context.usage,
      includeEncryptedReasoning: responsesRequest.include?.includes('reasoning.encrypted_content') === true,
      store: responsesRequest.store ?? true,
    });
    return {
      success: true,
      request: {
        messages: openAIResponsesMessageRoles(responsesRequest.input),
        model: responsesRequest.model ?? scriptedModelId,
        stream: responsesRequest.stream === true,
        promptCharacters: JSON.stringify(responsesRequest.input).length,
        encodeStream: (events, context) => encodeOpenAIResponsesStream(events, encoderContext(context)),
        encodeComplete: (events, context) => encodeOpenAIResponsesResponse(events, encoderContext(context)),
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
  malformedFrame: 'event: response.output_text.delta\ndata: {not json}\n\n',
  streamErrorFrames(message, context, precedingFrameCount) {
    // api.openai.com ends a stream that fails after it started with response.failed.
    const type = 'response.failed';
    return [
      sseFrame(
        {
          type,
          // Every frame of the reply so far carried one sequence number, counting from 0.
          sequence_number: precedingFrameCount,
          response: {
            id: `resp_scripted_${context.replyNumber}`,
            object: 'response',
            created_at: context.created,
            status: 'failed',
            error: { code: 'server_error', message },
            incomplete_details: null,
            model: context.model,
            output: [],
            usage: null,
          },
        },
        { event: type },
      ),
    ];
  },
};
