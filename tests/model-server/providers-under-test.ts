import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';

export interface ProviderUnderTest {
  readonly name: string;
  /** The package whose provider this is. */
  readonly packageName: string;
  /** Undefined when the provider package is not installed. */
  readonly createModel: ((origin: string) => LanguageModel) | undefined;
  /** False for OpenAI chat: api.openai.com streams no reasoning there, so the provider ignores `reasoning_content`. */
  readonly parsesReasoning: boolean;
  /** False for Gemini, which sends each function call whole: one tool-input-delta per call. */
  readonly streamsToolInputInPieces: boolean;
  /** False for Gemini, which sends no call ids: the provider makes up its own. */
  readonly keepsToolCallIds: boolean;
}

const apiKey = 'test-key';

export const openAIChatProvider: ProviderUnderTest = {
  name: 'OpenAI chat completions (@ai-sdk/openai .chat)',
  packageName: '@ai-sdk/openai',
  createModel: (origin) => createOpenAI({ baseURL: `${origin}/v1`, apiKey }).chat('gpt-4.1-mini'),
  parsesReasoning: false,
  streamsToolInputInPieces: true,
  keepsToolCallIds: true,
};

export const openAIResponsesProvider: ProviderUnderTest = {
  name: 'OpenAI Responses (@ai-sdk/openai .responses)',
  packageName: '@ai-sdk/openai',
  createModel: (origin) => createOpenAI({ baseURL: `${origin}/v1`, apiKey }).responses('gpt-4.1-mini'),
  parsesReasoning: true,
  streamsToolInputInPieces: true,
  keepsToolCallIds: true,
};

export const anthropicProvider: ProviderUnderTest = {
  name: 'Anthropic messages (@ai-sdk/anthropic)',
  packageName: '@ai-sdk/anthropic',
  createModel: (origin) => createAnthropic({ baseURL: `${origin}/v1`, apiKey })('claude-sonnet-4-5'),
  parsesReasoning: true,
  streamsToolInputInPieces: true,
  keepsToolCallIds: true,
};

export const geminiProvider: ProviderUnderTest = {
  name: 'Gemini (@ai-sdk/google)',
  packageName: '@ai-sdk/google',
  createModel: (origin) => createGoogleGenerativeAI({ baseURL: `${origin}/v1beta`, apiKey })('gemini-2.5-flash'),
  parsesReasoning: true,
  streamsToolInputInPieces: false,
  keepsToolCallIds: false,
};
