import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Script } from './script';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model-server';

const toolScript: Script = {
  turns: [
    {
      steps: [
        { reasoning: 'Why.', text: 'Calling.', toolCalls: [{ name: 'getParameters', arguments: { a: 1 } }] },
        { text: 'Done.' },
      ],
    },
  ],
};

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await startScriptedModelServer({ script: toolScript });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.setScript(toolScript);
  server.clearRequests();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${server.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('scripted model server: origin and model lists', () => {
  it('exposes its origin, of which url is the /v1 base', () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.origin}/v1`);
  });

  it('lists the model in the Anthropic shape when asked with anthropic-version, and in the Gemini shape under /v1beta', async () => {
    const anthropic = await fetch(`${server.origin}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } });
    expect(await anthropic.json()).toMatchObject({ data: [{ type: 'model', id: 'scripted-model' }], has_more: false });
    const gemini = await fetch(`${server.origin}/v1beta/models`);
    expect(await gemini.json()).toMatchObject({
      models: [
        { name: 'models/scripted-model', supportedGenerationMethods: ['generateContent', 'streamGenerateContent'] },
      ],
    });
  });
});

describe('scripted model server: request errors in each format', () => {
  it('answers a bad body in the shape of the route', async () => {
    const anthropic = await post('/v1/messages', { model: 'claude' });
    expect(anthropic.status).toBe(400);
    expect(await anthropic.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('messages') },
    });

    const gemini = await post('/v1beta/models/gemini-x:streamGenerateContent?alt=sse', '{"contents": [');
    expect(gemini.status).toBe(400);
    expect(await gemini.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });

    const responses = await post('/v1/responses', { model: 'gpt' });
    expect(await responses.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('input') },
    });

    const chat = await post('/api/chat', { id: 'c' });
    expect(chat.status).toBe(400);
    expect(chat.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await chat.text()).toContain('messages');
  });

  it('refuses a Gemini stream without alt=sse and answers unknown /v1beta paths in Google shape', async () => {
    const withoutSse = await post('/v1beta/models/gemini-x:streamGenerateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(withoutSse.status).toBe(400);
    expect(await withoutSse.json()).toMatchObject({
      error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('alt=sse') },
    });

    const unknown = await post('/v1beta/models/gemini-x:countTokens', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 404, message: 'Invalid URL (POST /v1beta/models/gemini-x:countTokens)', status: 'NOT_FOUND' },
    });
  });

  it('sends a scripted verbatim body and headers unchanged on every route', async () => {
    server.setScript({
      turns: [{ steps: [{ error: { status: 503, body: 'upstream down', headers: { 'x-scripted': 'yes' } } }] }],
    });
    const response = await post('/v1/messages', { messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(response.status).toBe(503);
    expect(response.headers.get('x-scripted')).toBe('yes');
    expect(await response.text()).toBe('upstream down');
  });
});

describe('scripted model server: non-streaming replies', () => {
  it('answers Anthropic without stream with a whole message', async () => {
    const response = await post('/v1/messages', {
      model: 'claude-x',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.headers.get('request-id')).toMatch(/^req_scripted_\d+$/);
    expect(await response.json()).toMatchObject({
      type: 'message',
      model: 'claude-x',
      content: [
        { type: 'thinking', thinking: 'Why.' },
        { type: 'text', text: 'Calling.' },
        { type: 'tool_use', id: 'toolu_0_0_0', name: 'getParameters', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
    });
  });

  it('answers Responses with stream false with the completed response', async () => {
    const response = await post('/v1/responses', { model: 'gpt-x', input: 'hi' });
    expect(await response.json()).toMatchObject({
      object: 'response',
      status: 'completed',
      output: [
        { type: 'reasoning' },
        { type: 'message', content: [{ text: 'Calling.' }] },
        { type: 'function_call', call_id: 'call_0_0_0', arguments: '{"a":1}' },
      ],
    });
  });

  it('answers Gemini :generateContent with one whole candidate', async () => {
    const response = await post('/v1beta/models/gemini-x:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(await response.json()).toMatchObject({
      candidates: [
        {
          content: {
            parts: [
              { text: 'Why.', thought: true },
              { text: 'Calling.' },
              { functionCall: { name: 'getParameters', args: { a: 1 } } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      modelVersion: 'gemini-x',
    });
  });
});

describe('scripted model server: attempts of once steps', () => {
  const onceScript: Script = { turns: [{ steps: [{ error: { status: 429 }, once: true }, { text: 'Through.' }] }] };
  const chatBody = { stream: false, messages: [{ role: 'user', content: 'hi' }] };

  it('are counted per (turn, step) across routes and forgotten when the script is set again or reset', async () => {
    server.setScript(onceScript);
    expect((await post('/v1/chat/completions', chatBody)).status).toBe(429);
    expect((await post('/v1/messages', { messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200);

    server.setScript(onceScript);
    expect((await post('/v1/chat/completions', chatBody)).status).toBe(429);
    expect((await post('/v1/chat/completions', chatBody)).status).toBe(200);
    await fetch(`${server.origin}/__control/reset`, { method: 'POST' });
    expect((await post('/v1/chat/completions', chatBody)).status).toBe(429);
  });
});
