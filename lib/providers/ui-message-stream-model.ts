import {
  APICallError,
  EmptyResponseBodyError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import {
  extractResponseHeaders,
  isAbortError,
  postJsonToApi,
  readResponseWithSizeLimit,
  type FetchFunction,
  type ResponseHandler,
} from '@ai-sdk/provider-utils';
import { parseJsonEventStream, uiMessageChunkSchema } from 'ai';
import { parseProviderErrorBody } from './provider-error-body';
import { UIMessageChunkMapper, type UIMessageChunkResult } from './ui-message-chunk-mapper';
import { uiMessagesFromPrompt } from './ui-messages-from-prompt';

export interface UIMessageStreamModelOptions {
  /** The chat route, e.g. http://localhost:3000/api/chat. */
  url: string;
  /** Sent in the body; servers that pick their own model ignore it. */
  model: string;
  apiKey?: string;
  /** Append an invisible continuation user turn when the conversation ends on tool results. */
  continuation: boolean;
  chatId?: string;
  fetch?: FetchFunction;
}

/**
 * An AI SDK chat server (the UI message stream protocol, as useChat speaks it) as a language model: the
 * server declares the tools and leaves running them to the browser. The request carries the conversation as
 * UI messages; the reply is parsed with the AI SDK's own `uiMessageChunkSchema` and handed on as the stream
 * parts of one step.
 */
export function createUIMessageStreamModel(options: UIMessageStreamModelOptions): LanguageModelV3 {
  const chatId = options.chatId ?? crypto.randomUUID();
  return {
    specificationVersion: 'v3',
    provider: 'ai-sdk-chat',
    modelId: options.model,
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('An AI SDK chat server only streams.')),
    async doStream(call: LanguageModelV3CallOptions) {
      const body = {
        id: chatId,
        model: options.model,
        messages: uiMessagesFromPrompt(call.prompt, { continuation: options.continuation }),
        trigger: 'submit-message',
      };
      const { value: chunks, responseHeaders } = await postJsonToApi({
        url: options.url,
        headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...call.headers },
        body,
        failedResponseHandler: failedChatResponse,
        successfulResponseHandler: uiMessageStreamResponse,
        abortSignal: call.abortSignal,
        fetch: options.fetch,
      });
      return { stream: chunks.pipeThrough(toStreamParts()), request: { body }, response: { headers: responseHeaders } };
    },
  };
}

/** The body parsed by the AI SDK's own SSE and UI-message-chunk parsing. */
const uiMessageStreamResponse: ResponseHandler<ReadableStream<UIMessageChunkResult>> = async ({
  response,
  url,
  requestBodyValues,
}) => {
  const responseHeaders = extractResponseHeaders(response);
  if (response.body === null) throw new EmptyResponseBodyError({});
  const body = failuresAsApiCallErrors(response.body, {
    url,
    requestBodyValues,
    statusCode: response.status,
    responseHeaders,
  });
  return { responseHeaders, value: parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }) };
};

/** A body that breaks after a 2xx status fails the way the provider packages report it, status and cause kept. */
function failuresAsApiCallErrors(
  body: ReadableStream<Uint8Array>,
  context: { url: string; requestBodyValues: unknown; statusCode: number; responseHeaders: Record<string, string> },
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(
          isAbortError(error)
            ? error
            : new APICallError({ message: 'Failed to process successful response', cause: error, ...context }),
        );
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function toStreamParts(): TransformStream<UIMessageChunkResult, LanguageModelV3StreamPart> {
  const mapper = new UIMessageChunkMapper();
  return new TransformStream({
    start: (controller) => controller.enqueue({ type: 'stream-start', warnings: [] }),
    transform: (result, controller) => {
      for (const part of mapper.map(result)) controller.enqueue(part);
    },
    flush: (controller) => {
      for (const part of mapper.end()) controller.enqueue(part);
    },
  });
}

/** Chat servers answer errors as plain text (toUIMessageStreamResponse) or as a provider's JSON; both keep status, headers and body. */
const failedChatResponse: ResponseHandler<APICallError> = async ({ response, url, requestBodyValues }) => {
  const responseHeaders = extractResponseHeaders(response);
  const responseBody = new TextDecoder().decode(await readResponseWithSizeLimit({ response, url }));
  const message =
    parseProviderErrorBody(responseBody)?.message ??
    (responseBody.trim().slice(0, 500) || response.statusText || `HTTP ${response.status}`);
  const isRetryable = response.status === 408 || response.status === 429 || response.status >= 500;
  return {
    responseHeaders,
    value: new APICallError({
      message,
      url,
      requestBodyValues,
      statusCode: response.status,
      responseHeaders,
      responseBody,
      isRetryable,
    }),
  };
};
