import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { importOptionalPackage } from './import-optional-package';

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

type ProviderFactory = (options: { baseURL: string; apiKey: string }) => (modelId: string) => LanguageModel;

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

/** The Anthropic and Google providers are optional here: their tests skip when the package is not installed. */
export async function loadAnthropicProvider(): Promise<ProviderUnderTest> {
  const factory = await loadFactory('@ai-sdk/anthropic', 'createAnthropic');
  return {
    name: 'Anthropic messages (@ai-sdk/anthropic)',
    packageName: '@ai-sdk/anthropic',
    createModel: factory === undefined ? undefined : (origin) => factory({ baseURL: `${origin}/v1`, apiKey })('claude-sonnet-4-5'),
    parsesReasoning: true,
    streamsToolInputInPieces: true,
    keepsToolCallIds: true,
  };
}

export async function loadGeminiProvider(): Promise<ProviderUnderTest> {
  const factory = await loadFactory('@ai-sdk/google', 'createGoogleGenerativeAI');
  return {
    name: 'Gemini (@ai-sdk/google)',
    packageName: '@ai-sdk/google',
    createModel: factory === undefined ? undefined : (origin) => factory({ baseURL: `${origin}/v1beta`, apiKey })('gemini-2.5-flash'),
    parsesReasoning: true,
    streamsToolInputInPieces: false,
    keepsToolCallIds: false,
  };
}

async function loadFactory(packageName: string, exportName: string): Promise<ProviderFactory | undefined> {
  const loaded = await importOptionalPackage(packageName);
  const factory = loaded?.[exportName];
  return typeof factory === 'function' ? (factory as ProviderFactory) : undefined;
}
