import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { anthropicMessagesWireFormat } from './anthropic-messages-wire-format';
import { demoScript } from './demo-script';
import { geminiWireFormat, isGeminiPath } from './gemini-wire-format';
import { googleErrorBody } from './google-error-body';
import type { ModelStreamEvent } from './model-stream-event';
import { mulberry32 } from './mulberry32';
import type { TokenUsage } from './openai-chat-encoder';
import { openAIChatWireFormat } from './openai-chat-wire-format';
import { openAIErrorBody } from './openai-error-body';
import { openAIResponsesWireFormat } from './openai-responses-wire-format';
import {
  isBreakAfterStep,
  isCutAtStep,
  isErrorStep,
  isTruncateStep,
  locateStep,
  pickStep,
  scriptSchema,
  type ErrorStep,
  type Script,
  type StreamableStep,
} from './script';
import { scriptedModelId } from './scripted-model-id';
import { stepToEvents } from './step-to-events';
import { uiMessageStreamWireFormat } from './ui-message-stream-wire-format';
import type { ReplyContext, RequestTarget, WireFormat } from './wire-format';
import { writeFramesInPieces } from './write-frames-in-pieces';
import { framesUpToByte } from './frames-up-to-byte';
import { contextLengthErrorBody, requestPromptTokens } from './context-length-error';
import { errorText } from '../../lib/protocol/error-text';

export { scriptedModelId } from './scripted-model-id';

export interface ScriptedModelServerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Defaults to the particle-field demo script. */
  readonly script?: Script;
  /** Seeds the random byte cutting of streams; defaults to 1. */
  readonly seed?: number;
  readonly minPieceBytes?: number;
  readonly maxPieceBytes?: number;
  /** Answers a request itself instead of the script (the offline demo model); undefined leaves it to the script. */
  readonly respond?: (body: unknown, format: WireFormat['name']) => StreamableStep | undefined;
  /**
   * A context window to enforce: a request whose body counts more tokens answers the provider's own context-length
   * error, and every reply reports the counted tokens as its input usage.
   */
  readonly contextWindowTokens?: number;
}

export interface RecordedRequest {
  readonly method: string;
  /** The request target as sent, including any query string. */
  readonly path: string;
  readonly headers: Record<string, string>;
  /** Parsed JSON, or the raw text when the body is not JSON (empty string when there is no body). */
  readonly body: unknown;
  /** `Date.now()` when the request body had been read. */
  readonly time: number;
}

export interface ScriptedModelServer {
  /** Base URL for OpenAI-compatible clients, e.g. `http://127.0.0.1:4010/v1`. */
  readonly url: string;
  /** Scheme, host and port without a path, e.g. `http://127.0.0.1:4010`; the base of every route. */
  readonly origin: string;
  readonly port: number;
  /** Replaces the script and forgets how often each (turn, step) was attempted. */
  setScript(script: Script): void;
  /** Enforces a context window from now on (undefined: none); see `ScriptedModelServerOptions.contextWindowTokens`. */
  setContextWindow(tokens: number | undefined): void;
  /** The requests refused for passing the window, with their counts. */
  readonly overWindow: { promptTokens: number; windowTokens: number }[];
  /** Model requests in arrival order; control routes and CORS preflights are not recorded. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  close(): Promise<void>;
}

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  // The `*` wildcard does not cover Authorization, which the AI SDK sends with an API key.
  'Access-Control-Allow-Headers': '*, Authorization',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  // Lets browser callers read retry-after and similar headers of scripted errors.
  'Access-Control-Expose-Headers': '*',
} as const;

const invalidJsonMessage =
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)";

const streamErrorMessage = 'The scripted model server broke off this reply.';

type ParsedBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly text: string };

const modelRoutes: ReadonlyMap<string, WireFormat> = new Map([
  ['/v1/chat/completions', openAIChatWireFormat],
  ['/v1/responses', openAIResponsesWireFormat],
  ['/v1/messages', anthropicMessagesWireFormat],
  ['/api/chat', uiMessageStreamWireFormat],
]);

function wireFormatForPath(pathname: string): WireFormat | undefined {
  return modelRoutes.get(pathname) ?? (isGeminiPath(pathname) ? geminiWireFormat : undefined);
}

export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  const host = options.host ?? '127.0.0.1';
  const seed = options.seed ?? 1;
  const minPieceBytes = options.minPieceBytes ?? 1;
  const maxPieceBytes = options.maxPieceBytes ?? 5;
  let script = scriptSchema.parse(options.script ?? demoScript);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  // How many requests each (turn, step) position has answered, so `once` steps give way on a retry.
  const attempts = new Map<string, number>();
  let replyCount = 0;
  let contextWindowTokens = options.contextWindowTokens;
  const overWindow: { promptTokens: number; windowTokens: number }[] = [];

  const replaceScript = (nextScript: Script): void => {
    script = nextScript;
    attempts.clear();
  };

  const handleModelRequest = async (
    format: WireFormat,
    target: RequestTarget,
    request: IncomingMessage,
    response: ServerResponse,
    body: ParsedBody,
  ): Promise<void> => {
    const sendFormatError = (status: number, message: string): void => {
      const reply = format.errorReply({ status, message });
      sendText(response, status, reply.contentType, reply.body, reply.headers);
    };
    if (body.kind !== 'json') {
      sendFormatError(400, body.kind === 'empty' ? 'The request body is empty.' : invalidJsonMessage);
      return;
    }
    const parsed = format.parseRequest(body.value, target);
    if (!parsed.success) {
      sendFormatError(400, parsed.message);
      return;
    }
    const modelRequest = parsed.request;
    // Closing the server destroys sockets, which also ends pauses of slow scripted replies.
    const responseClosed = new AbortController();
    response.once('close', () => responseClosed.abort());
    const pause = (delayMs: number | undefined): Promise<boolean> =>
      delayMs === undefined
        ? Promise.resolve(true)
        : sleep(delayMs, true, { signal: responseClosed.signal }).catch(() => false);

    const promptTokens = contextWindowTokens === undefined ? undefined : requestPromptTokens(body.value);
    if (promptTokens !== undefined && contextWindowTokens !== undefined && promptTokens > contextWindowTokens) {
      overWindow.push({ promptTokens, windowTokens: contextWindowTokens });
      sendJson(response, 400, contextLengthErrorBody(format.name, promptTokens, contextWindowTokens));
      return;
    }
    const location = locateStep(script, modelRequest.messages);
    const attemptKey = `${location.turnIndex}:${location.stepIndex}`;
    const attempt = attempts.get(attemptKey) ?? 0;
    attempts.set(attemptKey, attempt + 1);
    const responded = options.respond?.(body.value, format.name);
    const picked = responded
      ? { step: responded, turnIndex: location.turnIndex, stepIndex: location.stepIndex, isFallback: false }
      : pickStep(script, modelRequest.messages, attempt);
    const { step } = picked;
    replyCount += 1;
    const replyNumber = replyCount;

    if (isErrorStep(step)) {
      if (!(await pause(step.delayMs))) return;
      sendScriptedError(response, step, format);
      return;
    }

    const events = stepToEvents(step, picked, { toolCallIdPrefix: format.toolCallIdPrefix });
    const context: ReplyContext = {
      replyNumber,
      created: Math.floor(Date.now() / 1000),
      model: modelRequest.model,
      usage:
        scriptedUsageOf(step) ?? withPromptTokens(estimateUsage(modelRequest.promptCharacters, events), promptTokens),
    };
    const replyHeaders = format.replyHeaders(context);
    request.socket.setNoDelay(true);

    if (!modelRequest.stream) {
      if (modelRequest.encodeComplete === undefined) {
        sendFormatError(400, 'The scripted model server only streams this API: send stream: true.');
        return;
      }
      const completionText = JSON.stringify(modelRequest.encodeComplete(events, context));
      if (!(await pause(step.delayMs))) return;
      if (isTruncateStep(step) || isBreakAfterStep(step) || isCutAtStep(step)) {
        response.writeHead(200, { 'Content-Type': 'application/json', ...replyHeaders });
        response.write(completionText.slice(0, Math.floor(completionText.length / 2)));
        dropConnection(response);
        return;
      }
      sendText(response, 200, 'application/json', completionText, replyHeaders);
      return;
    }

    response.writeHead(200, {
      'Content-Type': format.streamContentType,
      'Cache-Control': 'no-cache',
      ...replyHeaders,
    });
    response.flushHeaders();
    const encoded = modelRequest.encodeStream(events, context);
    const frames = isCutAtStep(step) ? framesUpToByte(encoded, step.cutAt.byte) : encoded;
    if (isBreakAfterStep(step) && step.breakAfter.error === 'malformed') frames.push(format.malformedFrame);
    if (isBreakAfterStep(step) && step.breakAfter.error === 'server')
      frames.push(...format.streamErrorFrames(streamErrorMessage, context, frames.length));
    const completed = await writeFramesInPieces(response, frames, {
      random: mulberry32((seed ^ Math.imul(replyNumber, 0x9e3779b9)) >>> 0),
      minPieceBytes,
      maxPieceBytes,
      signal: responseClosed.signal,
      ...(step.delayMs === undefined ? {} : { delayMs: step.delayMs }),
    });
    if (!completed) return;
    if (isTruncateStep(step) || (isCutAtStep(step) && step.cutAt.then === 'close')) {
      dropConnection(response);
      return;
    }
    if (isCutAtStep(step)) {
      await holdOpenUntilClosed(responseClosed.signal);
      return;
    }
    if (isBreakAfterStep(step) && step.breakAfter.error === 'network') {
      await resetConnection(response);
      return;
    }
    response.end();
  };

  const handleRequest = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(corsHeaders)) response.setHeader(name, value);
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const url = new URL(target, 'http://scripted.invalid');
    const pathname = url.pathname.replace(/\/+$/, '');

    if (method === 'OPTIONS') {
      response.writeHead(204, { 'Access-Control-Max-Age': '600' });
      response.end();
      return;
    }

    const bodyText = await readBodyText(request);
    const body = parseBody(bodyText);
    const headers = flattenHeaders(request);
    const isControlRoute = pathname.startsWith('/__control/');
    if (!isControlRoute) {
      requests.push({
        method,
        path: target,
        headers,
        body: body.kind === 'json' ? body.value : bodyText,
        time: Date.now(),
      });
    }

    const format = method === 'POST' ? wireFormatForPath(pathname) : undefined;
    if (format !== undefined) {
      await handleModelRequest(format, { pathname, searchParams: url.searchParams, headers }, request, response, body);
      return;
    }

    const route = `${method} ${pathname}`;
    switch (route) {
      case 'GET /v1/models':
        sendJson(response, 200, 'anthropic-version' in headers ? anthropicModelList() : openAIModelList());
        return;
      case 'GET /v1beta/models':
        sendJson(response, 200, geminiModelList());
        return;
      case 'POST /__control/script': {
        if (body.kind !== 'json') {
          sendJson(response, 400, openAIErrorBody(invalidJsonMessage));
          return;
        }
        const parsed = scriptSchema.safeParse(body.value);
        if (!parsed.success) {
          sendJson(response, 400, openAIErrorBody(z.prettifyError(parsed.error)));
          return;
        }
        replaceScript(parsed.data);
        sendJson(response, 200, { ok: true, name: script.name ?? null, turns: script.turns.length });
        return;
      }
      case 'GET /__control/requests':
        sendJson(response, 200, requests);
        return;
      case 'POST /__control/reset':
        requests.length = 0;
        attempts.clear();
        sendJson(response, 200, { ok: true });
        return;
      default: {
        const message = `Invalid URL (${method} ${url.pathname})`;
        sendJson(
          response,
          404,
          pathname.startsWith('/v1beta/') ? googleErrorBody(404, message) : openAIErrorBody(message),
        );
      }
    }
  };

  const server = createServer((request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const message = errorText(error);
      sendJson(response, 500, openAIErrorBody(`Scripted model server failure: ${message}`, 'server_error'));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${urlHost}:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    port,
    setScript(nextScript: Script): void {
      replaceScript(scriptSchema.parse(nextScript));
    },
    setContextWindow(tokens: number | undefined): void {
      contextWindowTokens = tokens;
    },
    overWindow,
    requests,
    clearRequests(): void {
      requests.length = 0;
    },
    close(): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
    },
  };
}

function sendJson(
  response: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  sendText(response, status, 'application/json', JSON.stringify(payload), headers);
}

function sendText(
  response: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/**
 * Closes the connection mid-body, as a crashed upstream would; ending the
 * socket (rather than destroying it) still flushes what was written.
 */
function dropConnection(response: ServerResponse): void {
  response.socket?.end();
}

/** A stalled upstream: the connection stays open and silent until the client (or the server's close) ends it. */
function holdOpenUntilClosed(closed: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (closed.aborted) resolve();
    else closed.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Aborts the connection with a TCP reset, as a network failure would. Waits
 * until everything written has left, so the client still gets the text first.
 */
async function resetConnection(response: ServerResponse): Promise<void> {
  const socket = response.socket;
  if (socket === null || socket.destroyed) return;
  while (socket.writableLength > 0 && !socket.destroyed) await sleep(1);
  // Gives the client a moment to read before the reset may discard unread bytes.
  await sleep(20);
  if (!socket.destroyed) socket.resetAndDestroy();
}

function sendScriptedError(response: ServerResponse, step: ErrorStep, format: WireFormat): void {
  const { status, body, headers = {}, message, quotaExhausted, retryDelaySeconds } = step.error;
  if (body !== undefined) {
    const isText = typeof body === 'string';
    sendText(
      response,
      status,
      isText ? 'text/plain; charset=utf-8' : 'application/json',
      isText ? body : JSON.stringify(body),
      headers,
    );
    return;
  }
  const reply = format.errorReply({
    status,
    ...(message === undefined ? {} : { message }),
    ...(quotaExhausted === undefined ? {} : { quotaExhausted }),
    ...(retryDelaySeconds === undefined ? {} : { retryDelaySeconds }),
  });
  sendText(response, status, reply.contentType, reply.body, { ...reply.headers, ...headers });
}

async function readBodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { kind: 'empty' };
  try {
    // The value stays `unknown` and every route validates it with zod before use.
    const value: unknown = JSON.parse(text);
    return { kind: 'json', value };
  } catch {
    return { kind: 'invalid', text };
  }
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The usage a script step gives, in the encoders' terms. */
function scriptedUsageOf(step: StreamableStep): TokenUsage | undefined {
  const usage = 'usage' in step ? step.usage : undefined;
  if (!usage) return undefined;
  return {
    promptTokens: usage.inputTokens,
    completionTokens: usage.outputTokens,
    ...(usage.reasoningTokens !== undefined ? { reasoningTokens: usage.reasoningTokens } : {}),
    ...(usage.cachedInputTokens !== undefined ? { cachedTokens: usage.cachedInputTokens } : {}),
  };
}

/** Roughly four characters per token, enough for tests that display or sum usage. */
function withPromptTokens(usage: TokenUsage, promptTokens: number | undefined): TokenUsage {
  return promptTokens === undefined ? usage : { ...usage, promptTokens };
}

function estimateUsage(promptCharacters: number, events: readonly ModelStreamEvent[]): TokenUsage {
  let outputCharacters = 0;
  for (const event of events) {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') outputCharacters += event.text.length;
    if (event.type === 'tool-call-start') outputCharacters += event.name.length;
    if (event.type === 'tool-call-delta') outputCharacters += event.argumentsDelta.length;
  }
  return { promptTokens: Math.ceil(promptCharacters / 4), completionTokens: Math.ceil(outputCharacters / 4) };
}

function openAIModelList() {
  return { object: 'list', data: [{ id: scriptedModelId, object: 'model', created: 0, owned_by: 'splitbrain-tests' }] };
}

function anthropicModelList() {
  const model = {
    type: 'model',
    id: scriptedModelId,
    display_name: 'Scripted Model',
    created_at: '2025-01-01T00:00:00Z',
  };
  return { data: [model], has_more: false, first_id: scriptedModelId, last_id: scriptedModelId };
}

function geminiModelList() {
  return {
    models: [
      {
        name: `models/${scriptedModelId}`,
        version: '001',
        displayName: 'Scripted Model',
        description: 'Replies from the Splitbrain scripted model server.',
        inputTokenLimit: 1048576,
        outputTokenLimit: 65536,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
        thinking: true,
      },
    ],
  };
}
