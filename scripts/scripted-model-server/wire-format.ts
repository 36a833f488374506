import type { ModelStreamEvent } from './model-stream-event';
import type { TokenUsage } from './openai-chat-encoder';
import type { ScriptMessage } from './script';

export type WireFormatName = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini' | 'ui-message-stream';

/** What one served reply needs besides its events. */
export interface ReplyContext {
  /** Counts replies (including errors) since the server started, from 1; used in ids. */
  readonly replyNumber: number;
  /** Unix seconds. */
  readonly created: number;
  readonly model: string;
  readonly usage: TokenUsage;
}

/** A validated model request of one wire format. */
export interface ModelRequest {
  readonly messages: readonly ScriptMessage[];
  readonly model: string;
  readonly stream: boolean;
  /** Length of the conversation as sent, for the rough token estimate. */
  readonly promptCharacters: number;
  encodeStream(events: readonly ModelStreamEvent[], context: ReplyContext): string[];
  /** The reply to `stream: false`; absent where the server only streams that format. */
  encodeComplete?(events: readonly ModelStreamEvent[], context: ReplyContext): unknown;
}

/** Where a request arrived; Gemini takes the model from the path and the stream mode from the method name. */
export interface RequestTarget {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
  readonly headers: Readonly<Record<string, string>>;
}

/** A scripted or server-made HTTP error before the format gives it its own shape. */
export interface HttpErrorDescription {
  readonly status: number;
  /** Absent when the script gave none: each format then says what its provider would. */
  readonly message?: string;
  readonly quotaExhausted?: boolean;
  readonly retryDelaySeconds?: number;
}

export interface HttpErrorReply {
  readonly contentType: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type ParseRequestResult =
  { readonly success: true; readonly request: ModelRequest } | { readonly success: false; readonly message: string };

export interface WireFormat {
  readonly name: WireFormatName;
  /** Prefix of generated tool call ids. */
  readonly toolCallIdPrefix: string;
  parseRequest(body: unknown, target: RequestTarget): ParseRequestResult;
  errorReply(error: HttpErrorDescription): HttpErrorReply;
  /** Headers of a successful reply besides Content-Type, e.g. a request id. */
  replyHeaders(context: ReplyContext): Record<string, string>;
  readonly streamContentType: string;
  /** A frame whose data is not JSON, for `breakAfter: { error: 'malformed' }`. */
  readonly malformedFrame: string;
  /** The format's own in-stream error, for `breakAfter: { error: 'server' }`; it follows `precedingFrameCount` frames of the reply. */
  streamErrorFrames(message: string, context: ReplyContext, precedingFrameCount: number): string[];
}
