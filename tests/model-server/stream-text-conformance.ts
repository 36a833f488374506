import { APICallError, JSONParseError, jsonSchema, streamText, tool, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { causeCodes } from './cause-chain';
import { collectStreamParts, type CollectedStream } from './collect-stream-parts';
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
import { retryInfoScript } from './fixtures/retry-info-script';
import {
  serverErrorInStreamScript,
  serverErrorPartialText,
  serverErrorRetryText,
} from './fixtures/server-error-in-stream-script';
import { truncatedPartialText, truncatedRetryText, truncatedStreamScript } from './fixtures/truncated-stream-script';
import type { ProviderUnderTest } from './providers-under-test';
import type { Script } from '../../scripts/scripted-model-server/script';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';

/** What differs between providers when the same fixtures fail. */
export interface FormatExpectations {
  /** The route the provider posts to, e.g. `/v1/messages`. */
  readonly path: string;
  /** Prefix of the tool call ids the server generates for this format. */
  readonly toolCallIdPrefix: string;
  /** The parsed body of a scripted 429 carrying `message`. */
  expectRateLimitBody(body: unknown, message: string): void;
  /** The parsed body of the quota-exhausted 429. */
  expectQuotaExhaustedBody(body: unknown): void;
  /** The 429 of the retry-info fixture, a 2 second hint in this format's native place. */
  expectRetryInfo(error: APICallError): void;
  /** The error part of the in-stream provider error. */
  expectStreamError(error: unknown): void;
}

const tools = {
  getParameters: tool({ description: 'Read the parameters.', inputSchema: jsonSchema({ type: 'object' }) }),
  setParameters: tool({ description: 'Change parameters.', inputSchema: jsonSchema({ type: 'object' }) }),
};

const userMessages: ModelMessage[] = [{ role: 'user', content: 'Make the particles faster.' }];

/**
 * Feeds every fixture through the real AI SDK provider with `streamText`
 * (tools without execute) and checks that text, reasoning and tool calls
 * reassemble exactly and that failures surface as the provider reports them.
 */
export function describeStreamTextConformance(provider: ProviderUnderTest, expectations: FormatExpectations): void {
  const createModel = provider.createModel;
  const title = `${provider.name} through streamText${createModel === undefined ? ` (skipped: ${provider.packageName} is not installed)` : ''}`;
  // Streams arrive in 1-5 byte pieces, so a reply takes a few hundred milliseconds even on a fast machine.
  describe.skipIf(createModel === undefined)(title, { timeout: 20_000 }, () => {
    let server: ScriptedModelServer;

    beforeAll(async () => {
      server = await startScriptedModelServer({ seed: 11 });
    });

    afterAll(async () => {
      await server.close();
    });

    const run = async (
      script: Script | undefined,
      messages: ModelMessage[],
      maxRetries = 0,
    ): Promise<{ collected: CollectedStream; responseMessages: ModelMessage[] }> => {
      if (script !== undefined) server.setScript(script);
      if (createModel === undefined) throw new Error('Provider not installed');
      const result = streamText({
        model: createModel(server.origin),
        system: 'You drive a particle field.',
        messages,
        tools,
        maxRetries,
        onError: () => undefined,
      });
      const collected = await collectStreamParts(result.fullStream);
      const responseMessages =
        collected.thrown === undefined && collected.errors.length === 0 ? (await result.response).messages : [];
      return { collected, responseMessages };
    };

    const toolResultsFor = (collected: CollectedStream): ModelMessage => ({
      role: 'tool',
      content: collected.toolCalls.map((call) => ({
        type: 'tool-result' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'json' as const, value: { ok: true, tool: call.toolName } },
      })),
    });

    const onlyError = (collected: CollectedStream): unknown => {
      expect(collected.errors).toHaveLength(1);
      return collected.errors[0];
    };

    const apiCallError = (error: unknown): APICallError => {
      if (!APICallError.isInstance(error)) throw new Error(`Expected an APICallError, got ${String(error)}`);
      return error;
    };

    it('posts to its route and reassembles Chinese text with emoji exactly, in several deltas', async () => {
      const { collected } = await run(chineseEmojiTextScript, userMessages);
      expect(collected.errors).toEqual([]);
      expect(collected.text).toBe(chineseEmojiText);
      expect(collected.textDeltaCount).toBeGreaterThan(1);
      expect(collected.finishReason).toBe('stop');
      expect(server.requests.at(-1)?.path.split('?')[0]).toBe(expectations.path);
    });

    it('reassembles reasoning before a tool call and before the answer', async () => {
      const first = await run(reasoningScript, userMessages);
      expect(first.collected.reasoning).toBe(provider.parsesReasoning ? reasoningBeforeCall : '');
      expect(first.collected.toolCalls).toMatchObject([{ toolName: 'getParameters', input: {} }]);
      expect(first.collected.finishReason).toBe('tool-calls');

      const second = await run(undefined, [
        ...userMessages,
        ...first.responseMessages,
        toolResultsFor(first.collected),
      ]);
      expect(second.collected.reasoning).toBe(provider.parsesReasoning ? reasoningBeforeAnswer : '');
      expect(second.collected.text).toBe(reasoningAnswer);
      expect(second.collected.finishReason).toBe('stop');
    });

    it('yields two parallel tool calls in one step, then answers once both results are back', async () => {
      const first = await run(parallelToolCallsScript, userMessages);
      expect(first.collected.text).toBe(parallelCallsIntro);
      expect(first.collected.toolCalls.map(({ toolName, input }) => ({ name: toolName, arguments: input }))).toEqual(
        parallelCalls,
      );
      if (provider.keepsToolCallIds) {
        expect(first.collected.toolCalls.map((call) => call.toolCallId)).toEqual([
          `${expectations.toolCallIdPrefix}0_0_0`,
          `${expectations.toolCallIdPrefix}0_0_1`,
        ]);
      }
      for (const call of first.collected.toolCalls)
        expect(first.collected.toolInputs.get(call.toolCallId)).toBe(JSON.stringify(call.input));
      expect(first.collected.finishReason).toBe('tool-calls');

      const second = await run(undefined, [
        ...userMessages,
        ...first.responseMessages,
        toolResultsFor(first.collected),
      ]);
      expect(second.collected.text).toBe(parallelCallsAnswer);
    });

    it('reassembles arguments that stream split after every punctuation mark', async () => {
      const { collected } = await run(punctuatedArgumentsScript, userMessages);
      expect(collected.toolCalls).toMatchObject([{ toolName: 'setParameters', input: punctuatedArguments }]);
      const [call] = collected.toolCalls;
      expect(collected.toolInputs.get(call?.toolCallId ?? '')).toBe(JSON.stringify(punctuatedArguments));
      if (provider.streamsToolInputInPieces) expect(collected.toolInputDeltaCount).toBeGreaterThan(20);
      else expect(collected.toolInputDeltaCount).toBe(1);
    });

    it('throws from the stream when the connection is reset mid-reply, and the retry gets the whole reply', async () => {
      const first = await run(networkBreakScript, userMessages);
      expect(first.collected.text).toBe(networkBreakPartialText);
      expect(first.collected.finishReason).toBeUndefined();
      const thrown = apiCallError(first.collected.thrown);
      expect(thrown.message).toBe('Failed to process successful response');
      expect(thrown.statusCode).toBe(200);
      expect(causeCodes(thrown)).toContain('ECONNRESET');

      const retry = await run(undefined, userMessages);
      expect(retry.collected.text).toBe(networkBreakRetryText);
      expect(retry.collected.finishReason).toBe('stop');
    });

    it('reports a malformed frame as a JSON parse error part, and the retry is clean', async () => {
      const first = await run(malformedFrameScript, userMessages);
      expect(first.collected.text).toBe(malformedFramePartialText);
      const error = onlyError(first.collected);
      expect(JSONParseError.isInstance(error)).toBe(true);
      expect(JSONParseError.isInstance(error) ? error.text : undefined).toBe('{not json}');

      const retry = await run(undefined, userMessages);
      expect(retry.collected.errors).toEqual([]);
      expect(retry.collected.text).toBe(malformedFrameRetryText);
    });

    it("reports the provider's own in-stream error event, and the retry is clean", async () => {
      const first = await run(serverErrorInStreamScript, userMessages);
      expect(first.collected.text).toBe(serverErrorPartialText);
      expectations.expectStreamError(onlyError(first.collected));
      expect(first.collected.finishReason).toBe('error');

      const retry = await run(undefined, userMessages);
      expect(retry.collected.text).toBe(serverErrorRetryText);
    });

    it('throws from the stream when the body ends without closing frames, and the retry is whole', async () => {
      const first = await run(truncatedStreamScript, userMessages);
      expect(first.collected.text).toBe(truncatedPartialText);
      const thrown = apiCallError(first.collected.thrown);
      expect(thrown.statusCode).toBe(200);
      expect(causeCodes(thrown)).not.toContain('ECONNRESET');

      const retry = await run(undefined, userMessages);
      expect(retry.collected.text).toBe(truncatedRetryText);
    });

    it('surfaces a 429 with Retry-After seconds, then answers the retried request', async () => {
      const first = await run(retryAfterSecondsScript, userMessages);
      const error = apiCallError(onlyError(first.collected));
      expect(error.statusCode).toBe(429);
      expect(error.isRetryable).toBe(true);
      expect(error.responseHeaders?.['retry-after']).toBe('2');
      expect(error.message).toBe('Rate limit reached. Please try again in 2s.');
      expectations.expectRateLimitBody(
        JSON.parse(error.responseBody ?? 'null'),
        'Rate limit reached. Please try again in 2s.',
      );

      const retry = await run(undefined, userMessages);
      expect(retry.collected.text).toBe(afterRateLimitText);
    });

    it('surfaces a 429 with retry-after-ms, then answers the retried request', async () => {
      const first = await run(retryAfterMsScript, userMessages);
      const error = apiCallError(onlyError(first.collected));
      expect(error.statusCode).toBe(429);
      expect(error.responseHeaders?.['retry-after-ms']).toBe('1500');
      expectations.expectRateLimitBody(
        JSON.parse(error.responseBody ?? 'null'),
        'Rate limit reached. Please try again in 1.5s.',
      );

      const retry = await run(undefined, userMessages);
      expect(retry.collected.text).toBe(afterRateLimitText);
    });

    it("surfaces a 429 with the format's native retry hint of two seconds", async () => {
      const first = await run(retryInfoScript, userMessages);
      const error = apiCallError(onlyError(first.collected));
      expect(error.statusCode).toBe(429);
      expectations.expectRetryInfo(error);

      const retry = await run(undefined, userMessages);
      expect(retry.collected.text).toBe(afterRateLimitText);
    });

    it('surfaces an exhausted quota as a 429 on every attempt', async () => {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const { collected } = await run(attempt === 0 ? quotaExhaustedScript : undefined, userMessages);
        const error = apiCallError(onlyError(collected));
        expect(error.statusCode).toBe(429);
        expectations.expectQuotaExhaustedBody(JSON.parse(error.responseBody ?? 'null'));
      }
    });
  });
}
