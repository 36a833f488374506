import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { demoScript } from './demo-script';
import { mulberry32 } from './mulberry32';
import { encodeOpenAIChatCompletion, encodeOpenAIChatStream, type TokenUsage } from './openai-chat-encoder';
import { openAIErrorBody, openAIErrorTypeForStatus } from './openai-error-body';
import type { ModelStreamEvent } from './model-stream-event';
import { isErrorStep, isTruncateStep, pickStep, scriptSchema, type ErrorStep, type Script } from './script';
import { stepToEvents } from './step-to-events';
import { writeFramesInPieces } from './write-frames-in-pieces';

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
  readonly port: number;
  setScript(script: Script): void;
  /** Model requests in arrival order; control routes and CORS preflights are not recorded. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  close(): Promise<void>;
}

export const scriptedModelId = 'scripted-model';

const chatCompletionRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string() })),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});

type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  // The `*` wildcard does not cover Authorization, which the AI SDK sends with an API key.
  'Access-Control-Allow-Headers': '*, Authorization',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  // Lets browser callers read retry-after and similar headers of scripted errors.
  'Access-Control-Expose-Headers': '*',
} as const;

const invalidJsonMessage =
  'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)';

type ParsedBody = { readonly kind: 'empty' } | { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'invalid'; readonly text: string };

export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  const host = options.host ?? '127.0.0.1';
  const seed = options.seed ?? 1;
  const minPieceBytes = options.minPieceBytes ?? 1;
  const maxPieceBytes = options.maxPieceBytes ?? 5;
  let script = scriptSchema.parse(options.script ?? demoScript);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let completionCount = 0;

  const handleChatCompletion = async (request: IncomingMessage, response: ServerResponse, body: ParsedBody): Promise<void> => {
    if (body.kind !== 'json') {
      sendJson(response, 400, openAIErrorBody(body.kind === 'empty' ? 'The request body is empty.' : invalidJsonMessage));
      return;
    }
    const parsed = chatCompletionRequestSchema.safeParse(body.value);
    if (!parsed.success) {
      sendJson(response, 400, openAIErrorBody(z.prettifyError(parsed.error)));
      return;
    }
    const chatRequest = parsed.data;
    // Closing the server destroys sockets, which also ends pauses of slow scripted replies.
    const responseClosed = new AbortController();
    response.once('close', () => responseClosed.abort());
    const pause = (delayMs: number | undefined): Promise<boolean> =>
      delayMs === undefined
        ? Promise.resolve(true)
        : sleep(delayMs, true, { signal: responseClosed.signal }).catch(() => false);
    const picked = pickStep(script, chatRequest.messages);
    const { step } = picked;
    completionCount += 1;
    const completionNumber = completionCount;

    if (isErrorStep(step)) {
      if (!(await pause(step.delayMs))) return;
      sendScriptedError(response, step);
      return;
    }

    const events = stepToEvents(step, picked);
    const context = {
      completionId: `chatcmpl-scripted-${completionNumber}`,
      created: Math.floor(Date.now() / 1000),
      model: chatRequest.model ?? scriptedModelId,
      usage: estimateUsage(chatRequest, events),
      includeUsageChunk: chatRequest.stream_options?.include_usage === true,
    };
    const requestIdHeader = { 'x-request-id': `req_scripted_${completionNumber}` };
    request.socket.setNoDelay(true);

    if (chatRequest.stream !== true) {
      const completion = encodeOpenAIChatCompletion(events, context);
      if (!(await pause(step.delayMs))) return;
      if (isTruncateStep(step)) {
        const completionText = JSON.stringify(completion);
        response.writeHead(200, { 'Content-Type': 'application/json', ...requestIdHeader });
        response.write(completionText.slice(0, Math.floor(completionText.length / 2)));
        dropConnection(response);
        return;
      }
      sendJson(response, 200, completion, requestIdHeader);
      return;
    }

    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      ...requestIdHeader,
    });
    response.flushHeaders();
    const completed = await writeFramesInPieces(response, encodeOpenAIChatStream(events, context), {
      random: mulberry32((seed ^ Math.imul(completionNumber, 0x9e3779b9)) >>> 0),
      minPieceBytes,
      maxPieceBytes,
      signal: responseClosed.signal,
      ...(step.delayMs === undefined ? {} : { delayMs: step.delayMs }),
    });
    if (!completed) return;
    if (isTruncateStep(step)) {
      dropConnection(response);
      return;
    }
    response.end();
  };

  const handleRequest = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(corsHeaders)) response.setHeader(name, value);
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const pathname = new URL(target, 'http://scripted.invalid').pathname;

    if (method === 'OPTIONS') {
      response.writeHead(204, { 'Access-Control-Max-Age': '600' });
      response.end();
      return;
    }

    const bodyText = await readBodyText(request);
    const body = parseBody(bodyText);
    const isControlRoute = pathname.startsWith('/__control/');
    if (!isControlRoute) {
      requests.push({
        method,
        path: target,
        headers: flattenHeaders(request),
        body: body.kind === 'json' ? body.value : bodyText,
        time: Date.now(),
      });
    }

    const route = `${method} ${pathname.replace(/\/+$/, '')}`;
    switch (route) {
      case 'POST /v1/chat/completions':
        await handleChatCompletion(request, response, body);
        return;
      case 'GET /v1/models':
        sendJson(response, 200, {
          object: 'list',
          data: [{ id: scriptedModelId, object: 'model', created: 0, owned_by: 'splitbrain-tests' }],
        });
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
        script = parsed.data;
        sendJson(response, 200, { ok: true, name: script.name ?? null, turns: script.turns.length });
        return;
      }
      case 'GET /__control/requests':
        sendJson(response, 200, requests);
        return;
      case 'POST /__control/reset':
        requests.length = 0;
        sendJson(response, 200, { ok: true });
        return;
      default:
        sendJson(response, 404, openAIErrorBody(`Invalid URL (${method} ${pathname})`));
    }
  };

  const server = createServer((request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
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

  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    setScript(nextScript: Script): void {
      script = scriptSchema.parse(nextScript);
    },
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

function sendJson(response: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(payload);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/**
 * Closes the connection mid-body, as a crashed upstream or a network failure
 * would; ending the socket (rather than destroying it) still flushes what was written.
 */
function dropConnection(response: ServerResponse): void {
  response.socket?.end();
}

function sendScriptedError(response: ServerResponse, step: ErrorStep): void {
  const { status, body, headers = {} } = step.error;
  const isText = typeof body === 'string';
  const text = isText
    ? body
    : JSON.stringify(body ?? openAIErrorBody(`Scripted error (HTTP ${status}).`, openAIErrorTypeForStatus(status)));
  response.writeHead(status, {
    'Content-Type': isText ? 'text/plain; charset=utf-8' : 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
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

/** Roughly four characters per token, enough for tests that display or sum usage. */
function estimateUsage(chatRequest: ChatCompletionRequest, events: readonly ModelStreamEvent[]): TokenUsage {
  let outputCharacters = 0;
  for (const event of events) {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') outputCharacters += event.text.length;
    if (event.type === 'tool-call-start') outputCharacters += event.name.length;
    if (event.type === 'tool-call-delta') outputCharacters += event.argumentsDelta.length;
  }
  return {
    promptTokens: Math.ceil(JSON.stringify(chatRequest.messages).length / 4),
    completionTokens: Math.ceil(outputCharacters / 4),
  };
}
