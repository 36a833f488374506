import {
  DefaultChatTransport,
  isToolUIPart,
  parseJsonEventStream,
  readUIMessageStream,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessagePart,
} from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { causeCodes } from './cause-chain';
import { continuationText } from '../../scripts/scripted-model-server/continuation-text';
import { chineseEmojiText, chineseEmojiTextScript } from './fixtures/chinese-emoji-text-script';
import {
  malformedFramePartialText,
  malformedFrameRetryText,
  malformedFrameScript,
} from './fixtures/malformed-frame-script';
import { networkBreakPartialText, networkBreakRetryText, networkBreakScript } from './fixtures/network-break-script';
import {
  parallelCalls,
  parallelCallsAnswer,
  parallelCallsIntro,
  parallelToolCallsScript,
} from './fixtures/parallel-tool-calls-script';
import { punctuatedArguments, punctuatedArgumentsScript } from './fixtures/punctuated-arguments-script';
import { quotaExhaustedScript } from './fixtures/quota-exhausted-script';
import {
  reasoningAnswer,
  reasoningBeforeAnswer,
  reasoningBeforeCall,
  reasoningScript,
} from './fixtures/reasoning-script';
import { retryAfterMsScript } from './fixtures/retry-after-ms-script';
import { afterRateLimitText, retryAfterSecondsScript } from './fixtures/retry-after-seconds-script';
import {
  serverErrorInStreamScript,
  serverErrorPartialText,
  serverErrorRetryText,
} from './fixtures/server-error-in-stream-script';
import { truncatedPartialText, truncatedRetryText, truncatedStreamScript } from './fixtures/truncated-stream-script';
import type { Script } from '../../scripts/scripted-model-server/script';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';

type Part = UIMessagePart<Record<string, never>, Record<string, { input: unknown; output: unknown }>>;

interface ChatReply {
  /** The last snapshot readUIMessageStream produced. */
  readonly message: UIMessage | undefined;
  /** What readUIMessageStream reported through onError. */
  readonly errors: unknown[];
  /** What sending threw, e.g. for an HTTP error. */
  readonly thrown: unknown;
}

const userMessage = (id: string, text: string, metadata?: unknown): UIMessage => ({
  id,
  role: 'user',
  ...(metadata === undefined ? {} : { metadata }),
  parts: [{ type: 'text', text }],
});

const firstUser = userMessage('user-1', 'Make the particles faster.');

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await startScriptedModelServer({ seed: 5 });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.clearRequests();
});

/** Sends like useChat does (DefaultChatTransport) and assembles the reply with readUIMessageStream. */
async function sendChat(script: Script | undefined, messages: UIMessage[]): Promise<ChatReply> {
  if (script !== undefined) server.setScript(script);
  const transport = new DefaultChatTransport<UIMessage>({ api: `${server.origin}/api/chat` });
  const errors: unknown[] = [];
  let message: UIMessage | undefined;
  let thrown: unknown;
  const lastMessage = messages.at(-1);
  try {
    const stream = await transport.sendMessages({
      chatId: 'chat-1',
      messages,
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const continued = lastMessage?.role === 'assistant' ? structuredClone(lastMessage) : undefined;
    for await (const snapshot of readUIMessageStream({
      stream,
      ...(continued === undefined ? {} : { message: continued }),
      onError: (error) => errors.push(error),
    })) {
      message = snapshot;
    }
  } catch (error) {
    thrown = error;
  }
  return { message, errors, thrown };
}

const partsOf = (message: UIMessage | undefined): Part[] => (message?.parts ?? []) as Part[];
const textOf = (message: UIMessage | undefined): string =>
  partsOf(message)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');

/** The assistant message as the client holds it once its tools have run. */
function withToolOutputs(message: UIMessage | undefined): UIMessage {
  if (message === undefined) throw new Error('Expected an assistant message');
  return {
    ...message,
    parts: message.parts.map((part) =>
      isToolUIPart(part) && part.state === 'input-available'
        ? { ...part, state: 'output-available', output: { ok: true } }
        : part,
    ),
  };
}

describe(
  'AI SDK UI message stream (POST /api/chat) through DefaultChatTransport and readUIMessageStream',
  { timeout: 20_000 },
  () => {
    it('answers with the UI stream headers and chunks that all pass uiMessageChunkSchema', async () => {
      server.setScript(parallelToolCallsScript);
      const response = await fetch(`${server.origin}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'chat-1', messages: [firstUser], trigger: 'submit-message' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      if (response.body === null) throw new Error('Expected a body');
      const chunkTypes: string[] = [];
      for await (const chunk of parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema })) {
        if (!chunk.success) throw chunk.error;
        chunkTypes.push(chunk.value.type);
      }
      expect(chunkTypes[0]).toBe('start');
      expect(chunkTypes[1]).toBe('start-step');
      expect(chunkTypes.filter((type) => type === 'tool-input-available')).toHaveLength(2);
      expect(chunkTypes.slice(-2)).toEqual(['finish-step', 'finish']);
    });

    it('reassembles Chinese text with emoji exactly', async () => {
      const { message, errors } = await sendChat(chineseEmojiTextScript, [firstUser]);
      expect(errors).toEqual([]);
      expect(message).toMatchObject({ role: 'assistant', id: expect.stringMatching(/^msg_scripted_\d+$/) });
      expect(partsOf(message)).toEqual([
        { type: 'step-start' },
        { type: 'text', text: chineseEmojiText, state: 'done' },
      ]);
    });

    it('reassembles reasoning and a tool call, then appends the next step to the same assistant message', async () => {
      const first = await sendChat(reasoningScript, [firstUser]);
      expect(partsOf(first.message)).toMatchObject([
        { type: 'step-start' },
        { type: 'reasoning', text: reasoningBeforeCall, state: 'done' },
        { type: 'tool-getParameters', toolCallId: 'call_0_0_0', state: 'input-available', input: {} },
      ]);

      const assistant = withToolOutputs(first.message);
      const second = await sendChat(undefined, [firstUser, assistant]);
      expect(second.message?.id).toBe(assistant.id);
      expect(partsOf(second.message).slice(3)).toMatchObject([
        { type: 'step-start' },
        { type: 'reasoning', text: reasoningBeforeAnswer, state: 'done' },
        { type: 'text', text: reasoningAnswer, state: 'done' },
      ]);
    });

    it('yields two parallel tool calls in one step, then the answer', async () => {
      const first = await sendChat(parallelToolCallsScript, [firstUser]);
      const toolParts = partsOf(first.message).filter(isToolUIPart);
      expect(toolParts.map((part) => ({ name: part.type.replace(/^tool-/, ''), arguments: part.input }))).toEqual(
        parallelCalls,
      );
      expect(toolParts.map((part) => part.toolCallId)).toEqual(['call_0_0_0', 'call_0_0_1']);
      expect(textOf(first.message)).toBe(parallelCallsIntro);

      const second = await sendChat(undefined, [firstUser, withToolOutputs(first.message)]);
      expect(partsOf(second.message).at(-1)).toEqual({ type: 'text', text: parallelCallsAnswer, state: 'done' });
    });

    it('reassembles arguments that stream split after every punctuation mark', async () => {
      const { message } = await sendChat(punctuatedArgumentsScript, [firstUser]);
      expect(partsOf(message).filter(isToolUIPart)).toMatchObject([
        { type: 'tool-setParameters', state: 'input-available', input: punctuatedArguments },
      ]);
    });

    it('reports a connection reset mid-reply through onError, and the retry gets the whole reply', async () => {
      const first = await sendChat(networkBreakScript, [firstUser]);
      expect(textOf(first.message)).toBe(networkBreakPartialText);
      expect(first.errors).toHaveLength(1);
      expect(causeCodes(first.errors[0])).toContain('ECONNRESET');

      const retry = await sendChat(undefined, [firstUser]);
      expect(retry.errors).toEqual([]);
      expect(textOf(retry.message)).toBe(networkBreakRetryText);
    });

    it('reports a malformed frame as a JSON parse error, and the retry is clean', async () => {
      const first = await sendChat(malformedFrameScript, [firstUser]);
      expect(textOf(first.message)).toBe(malformedFramePartialText);
      expect(first.errors).toHaveLength(1);
      expect(first.errors[0]).toMatchObject({ name: 'AI_JSONParseError', text: '{not json}' });

      const retry = await sendChat(undefined, [firstUser]);
      expect(textOf(retry.message)).toBe(malformedFrameRetryText);
    });

    it('reports an error chunk as an Error with its errorText, and the retry is clean', async () => {
      const first = await sendChat(serverErrorInStreamScript, [firstUser]);
      expect(textOf(first.message)).toBe(serverErrorPartialText);
      expect(first.errors).toEqual([new Error('The scripted model server broke off this reply.')]);

      const retry = await sendChat(undefined, [firstUser]);
      expect(textOf(retry.message)).toBe(serverErrorRetryText);
    });

    it('reports a body that ends without closing chunks, and the retry is whole', async () => {
      const first = await sendChat(truncatedStreamScript, [firstUser]);
      expect(textOf(first.message)).toBe(truncatedPartialText);
      expect(first.errors).toHaveLength(1);
      expect(first.errors[0]).toMatchObject({ message: 'terminated' });

      const retry = await sendChat(undefined, [firstUser]);
      expect(textOf(retry.message)).toBe(truncatedRetryText);
    });

    it('continues the same turn after an invisible continuation message', async () => {
      server.setScript({
        turns: [
          { steps: [{ truncate: { text: 'Half an' } }, { text: 'answer, continued.' }] },
          { steps: [{ text: 'Second turn.' }] },
        ],
      });
      const first = await sendChat(undefined, [firstUser]);
      const partial = first.message;
      if (partial === undefined) throw new Error('Expected a partial message');
      for (const continuation of [
        userMessage('user-2', continuationText),
        userMessage('user-2', 'go on', { continuation: true }),
      ]) {
        const reply = await sendChat(undefined, [firstUser, partial, continuation]);
        expect(textOf(reply.message)).toBe('answer, continued.');
      }
      const nextTurn = await sendChat(undefined, [firstUser, partial, userMessage('user-2', 'Next question.')]);
      expect(textOf(nextTurn.message)).toBe('Second turn.');
    });

    it('surfaces HTTP errors as plain text with their status and headers; the transport throws the text', async () => {
      for (const [script, header, value] of [
        [retryAfterSecondsScript, 'retry-after', '2'],
        [retryAfterMsScript, 'retry-after-ms', '1500'],
      ] as const) {
        server.setScript(script);
        const response = await fetch(`${server.origin}/api/chat`, {
          method: 'POST',
          body: JSON.stringify({ id: 'chat-1', messages: [firstUser] }),
        });
        expect(response.status).toBe(429);
        expect(response.headers.get(header)).toBe(value);
        expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(await response.text()).toMatch(/^Rate limit reached\. Please try again in /);
        const retried = await sendChat(undefined, [firstUser]);
        expect(textOf(retried.message)).toBe(afterRateLimitText);
      }

      const quota = await sendChat(quotaExhaustedScript, [firstUser]);
      expect(quota.thrown).toEqual(new Error('Scripted error (HTTP 429).'));
    });
  },
);
