import { APICallError, JSONParseError, NoOutputGeneratedError, TypeValidationError } from 'ai';
import { endpointAdvice } from './loopback-url';
import type { HttpFailure } from './retry-policy';
import { errorText } from '../protocol/error-text';

export type StreamFailureCode = 'http' | 'network' | 'unreachable' | 'malformed' | 'truncated' | 'provider' | 'stream';

export interface StreamFailure {
  message: string;
  code: StreamFailureCode;
  /** Whether trying the same request again may succeed. */
  retryable: boolean;
  /** Set when the endpoint answered with an HTTP error instead of a stream: the retry policy reads it. */
  http?: HttpFailure;
}

export interface FailureContext {
  /** True once this attempt has streamed something. */
  midStream: boolean;
  /** The endpoint's address, to advise on refused local servers. */
  endpointUrl?: string;
}

export const UNFINISHED_STREAM_MESSAGE = 'The model stream ended without finishing.';

/** Turns whatever a model stream failed with into one sentence a person can act on, and a code. */
export function describeStreamFailure(error: unknown, context: FailureContext): StreamFailure {
  if (APICallError.isInstance(error)) return describeApiCallError(error, context);
  if (JSONParseError.isInstance(error))
    return {
      code: 'malformed',
      retryable: true,
      message: `The model stream sent a frame that is not valid JSON: ${clip(error.text)}`,
    };
  if (TypeValidationError.isInstance(error))
    return {
      code: 'malformed',
      retryable: true,
      message: `The model stream sent a frame of an unexpected shape: ${clip(JSON.stringify(error.value) ?? '')}`,
    };
  if (
    NoOutputGeneratedError.isInstance(error) ||
    (error instanceof Error && /stream ended without a finish/i.test(error.message))
  )
    return { code: 'truncated', retryable: true, message: UNFINISHED_STREAM_MESSAGE };
  if (error instanceof TypeError)
    return context.midStream ? broken(causeCodes(error)) : unreachable(error.message, context);
  const provider = providerError(error);
  if (provider)
    return {
      code: 'provider',
      retryable: true,
      message: `${context.midStream ? 'The model reported an error mid-stream' : 'The endpoint reported an error'}: ${provider}`,
    };
  return { code: 'stream', retryable: true, message: errorText(error) };
}

function describeApiCallError(error: APICallError, context: FailureContext): StreamFailure {
  const status = error.statusCode;
  if (status === undefined) return unreachable(error.message, context);
  // A body that fails after a 2xx status arrives as "Failed to process successful response" with that status.
  if (status < 300) return broken(causeCodes(error));
  if (!context.midStream) {
    const headers = Object.fromEntries(
      Object.entries(error.responseHeaders ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    return {
      code: 'http',
      retryable: error.isRetryable,
      message: `HTTP ${status}: ${error.message}`,
      http: { status, headers, body: error.responseBody ?? '' },
    };
  }
  return { code: 'provider', retryable: true, message: `The model reported an error mid-stream: ${error.message}` };
}

function broken(codes: string[]): StreamFailure {
  return {
    code: 'network',
    retryable: true,
    message: `The connection to the model broke off mid-stream${codes.length ? ` (${codes.at(-1)})` : ''}.`,
  };
}

function unreachable(detail: string, context: FailureContext): StreamFailure {
  const advice = context.endpointUrl === undefined ? '' : endpointAdvice(undefined, context.endpointUrl);
  return {
    code: 'unreachable',
    retryable: true,
    message: `Could not reach the endpoint: ${detail.replace(/\.$/, '')}.${advice}`,
  };
}

/** Anthropic's in-stream `error` event arrives as its bare `{ type, message }`; an AI SDK chat server's as an Error. */
function providerError(error: unknown): string | undefined {
  if (error instanceof Error) return error.message;
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, message } = error as { type?: unknown; message?: unknown };
  if (typeof message !== 'string') return undefined;
  return typeof type === 'string' ? `${message} (${type})` : message;
}

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  let current = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
