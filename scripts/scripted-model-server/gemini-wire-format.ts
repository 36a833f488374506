import { z } from 'zod';
import { encodeGeminiResponse, encodeGeminiStream, type GeminiEncoderContext } from './gemini-encoder';
import { geminiMessageRoles } from './gemini-message-roles';
import { googleErrorBody, googleQuotaMessage } from './google-error-body';
import { sseFrame } from './sse-frame';
import { scriptedErrorMessage } from './scripted-error-message';
import type { ReplyContext, WireFormat } from './wire-format';

const generateContentRequestSchema = z.looseObject({
  contents: z.array(z.looseObject({ role: z.string().optional(), parts: z.array(z.unknown()) })),
});

/** `/v1beta/models/{model}:{method}`; a model id may itself contain slashes (tuned models). */
const geminiPathPattern = /^\/v1beta\/(.+):(streamGenerateContent|generateContent)$/;

export function isGeminiPath(pathname: string): boolean {
  return geminiPathPattern.test(pathname);
}

/**
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` (and
 * `:generateContent` without streaming). The model comes from the path. Without
 * `alt=sse` Google streams a JSON array instead of events; that form is not
 * scripted and is refused with 400.
 */
export const geminiWireFormat: WireFormat = {
  name: 'gemini',
  toolCallIdPrefix: 'call_',
  streamContentType: 'text/event-stream',
  parseRequest(body, target) {
    const [, modelPath = 'models/scripted-model', method] = geminiPathPattern.exec(target.pathname) ?? [];
    const stream = method === 'streamGenerateContent';
    if (stream && target.searchParams.get('alt') !== 'sse') {
      return {
        success: false,
        message: 'The scripted model server only streams Gemini replies as server-sent events: add ?alt=sse.',
      };
    }
    const parsed = generateContentRequestSchema.safeParse(body);
    if (!parsed.success) return { success: false, message: z.prettifyError(parsed.error) };
    const { contents } = parsed.data;
    const model = modelPath.replace(/^models\//, '');
    const encoderContext = (context: ReplyContext): GeminiEncoderContext => ({
      responseId: `scripted-${context.replyNumber}`,
      modelVersion: context.model,
      usage: context.usage,
    });
    return {
      success: true,
      request: {
        messages: geminiMessageRoles(contents),
        model,
        stream,
        promptCharacters: JSON.stringify(contents).length,
        encodeStream: (events, context) => encodeGeminiStream(events, encoderContext(context)),
        encodeComplete: (events, context) => encodeGeminiResponse(events, encoderContext(context)),
      },
    };
  },
  errorReply(error) {
    const defaultMessage =
      error.quotaExhausted === true || error.retryDelaySeconds !== undefined
        ? googleQuotaMessage
        : scriptedErrorMessage(error.status);
    const body = googleErrorBody(error.status, error.message ?? defaultMessage, {
      ...(error.quotaExhausted === undefined ? {} : { quotaExhausted: error.quotaExhausted }),
      ...(error.retryDelaySeconds === undefined ? {} : { retryDelaySeconds: error.retryDelaySeconds }),
    });
    // Google puts the retry hint in the body only; no retry-after header.
    return { contentType: 'application/json; charset=UTF-8', body: JSON.stringify(body, null, 2), headers: {} };
  },
  replyHeaders: () => ({}),
  malformedFrame: 'data: {not json}\r\n\r\n',
  streamErrorFrames: (message) => [sseFrame(googleErrorBody(500, message), { lineEnding: '\r\n' })],
};
