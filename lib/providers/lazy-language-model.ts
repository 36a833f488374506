import type { LanguageModelV3 } from '@ai-sdk/provider';

/**
 * A model whose provider package is imported on its first call, so the panel's first screen does not load the
 * packages of every endpoint kind (each is its own chunk). It answers as the model `load` gives.
 */
export function lazyLanguageModel(
  provider: string,
  modelId: string,
  load: () => Promise<LanguageModelV3>,
): LanguageModelV3 {
  let loading: Promise<LanguageModelV3> | undefined;
  const model = () => (loading ??= load());
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    get supportedUrls() {
      return model().then((loaded) => loaded.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}
