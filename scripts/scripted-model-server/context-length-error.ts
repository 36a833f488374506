import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { countInSlices } from '../../lib/context/token-counter';
import { anthropicErrorBody } from './anthropic-error-body';
import { googleErrorBody } from './google-error-body';
import { openAIErrorBody } from './openai-error-body';
import type { WireFormat } from './wire-format';

/**
 * What the server counts as a request's prompt: every token of its JSON body (messages, system prompt and tool
 * definitions alike), which is more than a provider counts, so a client that fits here fits there.
 */
export function requestPromptTokens(body: unknown): number {
  return countInSlices((text) => countTokens(text, { disallowedSpecial: new Set() }), JSON.stringify(body));
}

/** The body each provider answers (HTTP 400) when a prompt passes the model's context window. */
export function contextLengthErrorBody(
  format: WireFormat['name'],
  promptTokens: number,
  windowTokens: number,
): unknown {
  switch (format) {
    case 'anthropic-messages':
      return anthropicErrorBody(
        `prompt is too long: ${promptTokens} tokens > ${windowTokens} maximum`,
        'invalid_request_error',
      );
    case 'gemini':
      return googleErrorBody(
        400,
        `The input token count (${promptTokens}) exceeds the maximum number of tokens allowed (${windowTokens}).`,
      );
    default:
      return openAIErrorBody(
        `This model's maximum context length is ${windowTokens} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
        'invalid_request_error',
        'context_length_exceeded',
      );
  }
}
