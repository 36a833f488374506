import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, streamText, tool, type ModelMessage } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readSseFrames } from './read-sse-frames';
import type { Script } from './script';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model-server';

const multilingualText = '粒子场已启动，速度设为十二米每秒。Particles are flowing 🚀✨ — vectors on 👩‍🔬 done.';
const setParametersArguments = {
  changes: [
    { param: 'speed', value: 12 },
    { param: 'show_vectors', value: true },
  ],
};

const testScript: Script = {
  name: 'server test',
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'setParameters', arguments: setParametersArguments }], text: 'Changing it now.' },
        { text: multilingualText },
      ],
    },
    {
      steps: [
        { error: { status: 400, body: { error: { message: 'Scripted refusal', type: 'invalid_request_error' } } } },
      ],
    },
    { steps: [{ truncate: { text: 'This answer will be cut' } }] },
  ],
};

const userMessage = { role: 'user', content: 'Make the particles faster.' };

interface ChunkPayload {
  choices: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; type?: string; function: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
}

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await startScriptedModelServer({ port: 0, script: testScript, seed: 42 });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.setScript(testScript);
  server.clearRequests();
});

async function postChat(body: unknown): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer test-key' },
    body: JSON.stringify(body),
  });
}

async function streamChat(
  messages: unknown[],
): Promise<{ payloads: ChunkPayload[]; data: string[]; chunkCount: number }> {
  const response = await postChat({ model: 'scripted-model', stream: true, messages });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  if (response.body === null) throw new Error('Expected a response body');
  const { data, chunkCount } = await readSseFrames(response.body);
  expect(data.at(-1)).toBe('[DONE]');
  const payloads = data.slice(0, -1).map((frame) => JSON.parse(frame) as ChunkPayload);
  return { payloads, data, chunkCount };
}

describe('scripted model server: OpenAI chat completions stream', () => {
  it('streams text with Chinese and emoji that reassembles exactly', async () => {
    const { payloads, chunkCount } = await streamChat([
      userMessage,
      { role: 'assistant', content: null },
      { role: 'tool', content: '{}' },
    ]);
    const contentDeltas = payloads
      .map((payload) => payload.choices[0]?.delta?.content ?? '')
      .filter((content) => content !== '');
    expect(contentDeltas.length).toBeGreaterThan(1);
    expect(contentDeltas.join('')).toBe(multilingualText);
    expect(payloads.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunkCount).toBeGreaterThan(payloads.length);
  });

  it('streams tool call arguments across several deltas that reassemble to the exact JSON', async () => {
    const { payloads } = await streamChat([userMessage]);
    const toolCallDeltas = payloads.flatMap((payload) => payload.choices[0]?.delta?.tool_calls ?? []);
    expect(toolCallDeltas[0]).toEqual({
      index: 0,
      id: 'call_0_0_0',
      type: 'function',
      function: { name: 'setParameters', arguments: '' },
    });
    const argumentDeltas = toolCallDeltas
      .map((delta) => delta.function.arguments ?? '')
      .filter((piece) => piece !== '');
    expect(argumentDeltas.length).toBeGreaterThan(1);
    expect(argumentDeltas.join('')).toBe(JSON.stringify(setParametersArguments));
    const text = payloads.map((payload) => payload.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Changing it now.');
    expect(payloads.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('selects the step from the counts of user and assistant messages', async () => {
    const afterToolCall = await streamChat([
      userMessage,
      { role: 'assistant', content: null },
      { role: 'tool', content: '{}' },
    ]);
    expect(afterToolCall.payloads.map((payload) => payload.choices[0]?.delta?.content ?? '').join('')).toBe(
      multilingualText,
    );

    const secondTurn = await postChat({ messages: [userMessage, { role: 'assistant', content: 'ok' }, userMessage] });
    expect(secondTurn.status).toBe(400);
    expect(await secondTurn.json()).toEqual({ error: { message: 'Scripted refusal', type: 'invalid_request_error' } });

    const pastTheEnd = await streamChat([userMessage, { role: 'assistant' }, { role: 'assistant' }]);
    expect(pastTheEnd.payloads.map((payload) => payload.choices[0]?.delta?.content ?? '').join('')).toBe(
      '(The scripted model has nothing more to say.)',
    );
  });

  it('ends a truncated step without finish reason or [DONE]', async () => {
    const response = await postChat({ stream: true, messages: [userMessage, userMessage, userMessage] });
    expect(response.status).toBe(200);
    if (response.body === null) throw new Error('Expected a response body');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let received = '';
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received += decoder.decode(value, { stream: true });
        }
      })(),
    ).rejects.toThrow();
    expect(received).toContain('"content":"cut"');
    expect(received).not.toContain('finish_reason":"stop');
    expect(received).not.toContain('[DONE]');
  });

  it('answers stream: false with a complete chat.completion', async () => {
    const response = await postChat({ model: 'gpt-test', messages: [userMessage] });
    expect(response.status).toBe(200);
    const completion: unknown = await response.json();
    expect(completion).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-scripted-\d+$/),
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Changing it now.',
            tool_calls: [
              {
                id: 'call_0_0_0',
                type: 'function',
                function: { name: 'setParameters', arguments: JSON.stringify(setParametersArguments) },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
  });
});

describe('scripted model server: bookkeeping and errors', () => {
  it('records model requests with parsed bodies, but not control requests', async () => {
    await postChat({ model: 'scripted-model', messages: [userMessage] });
    await fetch(`${server.url}/models`);
    const controlResponse = await fetch(server.url.replace(/\/v1$/, '/__control/requests'));
    const viaControl: unknown = await controlResponse.json();

    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/chat/completions',
      'GET /v1/models',
    ]);
    const [chatRequest] = server.requests;
    expect(chatRequest?.body).toEqual({ model: 'scripted-model', messages: [userMessage] });
    expect(chatRequest?.headers['authorization']).toBe('Bearer test-key');
    expect(typeof chatRequest?.time).toBe('number');
    expect(viaControl).toEqual(JSON.parse(JSON.stringify(server.requests)));

    const resetResponse = await fetch(server.url.replace(/\/v1$/, '/__control/reset'), { method: 'POST' });
    expect(resetResponse.status).toBe(200);
    expect(server.requests).toEqual([]);
  });

  it('lists the scripted model', async () => {
    const response = await fetch(`${server.url}/models`);
    expect(await response.json()).toEqual({
      object: 'list',
      data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'splitbrain-tests' }],
    });
  });

  it('answers unknown routes with 404 in OpenAI error shape', async () => {
    const response = await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'Invalid URL (POST /v1/embeddings)', type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('answers a bad JSON body with 400 in OpenAI error shape', async () => {
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{"messages": [' });
    expect(response.status).toBe(400);
    const body: unknown = await response.json();
    expect(body).toEqual({
      error: {
        message: expect.stringContaining('We could not parse the JSON body of your request.'),
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });

  it('answers a body without messages with 400', async () => {
    const response = await postChat({ model: 'scripted-model' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('messages') },
    });
  });

  it('answers CORS preflights and adds CORS headers to every response', async () => {
    const preflight = await fetch(`${server.url}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'chrome-extension://abc',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');

    const notFound = await fetch(`${server.url}/nowhere`);
    expect(notFound.headers.get('access-control-allow-origin')).toBe('*');
    expect(server.requests.map((request) => request.method)).toEqual(['GET']);
  });

  it('replaces the script through the control route and rejects invalid scripts with the zod message', async () => {
    const controlUrl = server.url.replace(/\/v1$/, '/__control/script');
    const invalid = await fetch(controlUrl, {
      method: 'POST',
      body: JSON.stringify({ turns: [{ steps: [{ say: 'hi' }] }] }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining(
          'A step needs one of the keys text, toolCalls, error, truncate, breakAfter, cutAt.',
        ),
      },
    });

    const valid = await fetch(controlUrl, {
      method: 'POST',
      body: JSON.stringify({ turns: [{ steps: [{ text: 'Replaced.' }] }] }),
    });
    expect(valid.status).toBe(200);
    const { payloads } = await streamChat([userMessage]);
    expect(payloads.map((payload) => payload.choices[0]?.delta?.content ?? '').join('')).toBe('Replaced.');
  });

  it('sends scripted HTTP errors with their headers', async () => {
    server.setScript({ turns: [{ steps: [{ error: { status: 429, headers: { 'retry-after': '3' } } }] }] });
    const response = await postChat({ stream: true, messages: [userMessage] });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(await response.json()).toEqual({
      error: { message: 'Scripted error (HTTP 429).', type: 'rate_limit_exceeded', param: null, code: null },
    });
  });
});

describe('scripted model server: slow streams and shutdown', () => {
  it('pauses delayMs before every frame of a step', async () => {
    server.setScript({ turns: [{ steps: [{ text: 'one two three', delayMs: 30 }] }] });
    const startedAt = performance.now();
    const { data } = await streamChat([userMessage]);
    const elapsed = performance.now() - startedAt;
    // role chunk, three words, finish chunk and [DONE]
    expect(data).toHaveLength(6);
    expect(elapsed).toBeGreaterThanOrEqual(6 * 30 - 10);
  });

  it('closes promptly while a slow stream is still open', async () => {
    const slowServer = await startScriptedModelServer({
      script: { turns: [{ steps: [{ text: 'never finishes in time', delayMs: 5000 }] }] },
    });
    const response = await fetch(`${slowServer.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, messages: [userMessage] }),
    });
    expect(response.status).toBe(200);
    const startedAt = performance.now();
    await slowServer.close();
    expect(performance.now() - startedAt).toBeLessThan(1000);
    await expect(response.text()).rejects.toThrow();
  });
});

describe('scripted model server through the Vercel AI SDK', () => {
  const tools = {
    setParameters: tool({
      description: 'Change parameters of the particle field.',
      inputSchema: jsonSchema<{ changes: { param: string; value: unknown }[] }>({
        type: 'object',
        properties: { changes: { type: 'array', items: { type: 'object' } } },
        required: ['changes'],
      }),
    }),
  };

  it('yields a parsed tool call, then text deltas that reassemble to the scripted text', async () => {
    const provider = createOpenAICompatible({
      name: 'scripted',
      baseURL: server.url,
      apiKey: 'test-key',
      includeUsage: true,
    });
    const model = provider.chatModel('scripted-model');
    const messages: ModelMessage[] = [{ role: 'user', content: 'Make the particles faster.' }];

    const first = streamText({ model, system: 'You drive a particle field.', messages, tools, maxRetries: 0 });
    const firstParts = [];
    for await (const part of first.fullStream) firstParts.push(part);
    const firstTypes = firstParts.map((part) => part.type);
    expect(firstTypes.filter((type) => type === 'tool-input-delta').length).toBeGreaterThan(1);
    const toolCall = firstParts.find((part) => part.type === 'tool-call');
    expect(toolCall).toMatchObject({
      type: 'tool-call',
      toolCallId: 'call_0_0_0',
      toolName: 'setParameters',
      input: setParametersArguments,
    });
    expect(
      firstParts
        .filter((part) => part.type === 'text-delta')
        .map((part) => part.text)
        .join(''),
    ).toBe('Changing it now.');
    expect(firstTypes).toContain('tool-input-start');
    expect(firstTypes.at(-2)).toBe('finish-step');
    expect(firstTypes.at(-1)).toBe('finish');
    expect(await first.finishReason).toBe('tool-calls');
    expect((await first.usage).outputTokens).toBeGreaterThan(0);

    const followUp: ModelMessage[] = [
      ...messages,
      ...(await first.response).messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_0_0_0',
            toolName: 'setParameters',
            output: { type: 'json', value: { ok: true } },
          },
        ],
      },
    ];
    const second = streamText({
      model,
      system: 'You drive a particle field.',
      messages: followUp,
      tools,
      maxRetries: 0,
    });
    let text = '';
    let textDeltaCount = 0;
    for await (const part of second.fullStream) {
      if (part.type === 'text-delta') {
        text += part.text;
        textDeltaCount += 1;
      }
    }
    expect(textDeltaCount).toBeGreaterThan(1);
    expect(text).toBe(multilingualText);
    expect(await second.finishReason).toBe('stop');

    const secondBody = server.requests.at(-1)?.body;
    expect(secondBody).toMatchObject({
      model: 'scripted-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You drive a particle field.' },
        { role: 'user', content: 'Make the particles faster.' },
        {
          role: 'assistant',
          content: 'Changing it now.',
          tool_calls: [
            {
              id: 'call_0_0_0',
              type: 'function',
              function: { name: 'setParameters', arguments: JSON.stringify(setParametersArguments) },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0_0_0', content: '{"ok":true}' },
      ],
      tools: [{ type: 'function', function: { name: 'setParameters', parameters: { type: 'object' } } }],
    });
  });

  it('surfaces a scripted HTTP error as an error part', async () => {
    const provider = createOpenAICompatible({ name: 'scripted', baseURL: server.url });
    const result = streamText({
      model: provider.chatModel('scripted-model'),
      messages: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'two' },
      ],
      maxRetries: 0,
      onError: () => undefined,
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ statusCode: 400, message: 'Scripted refusal' });
  });
});
