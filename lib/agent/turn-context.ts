import type { LanguageModel } from 'ai';
import { contextWindowOf, promptLimitOf } from '../context/context-window';
import type { HistoryBoundary } from '../context/history-cut';
import { loadTokenCounter, type TokenCounter } from '../context/token-counter';
import { isRemoteEndpoint, type EndpointSettings } from '../settings/endpoint-settings';
import type { ClientState } from '../state/client-state';
import type { ContextOptions } from './context-keeper';

/** The calibration key of a profile: the model named in each step (as `step/completed` records it), '' for none. */
export function calibrationKey(settings: EndpointSettings): string {
  return isRemoteEndpoint(settings) ? settings.model : '';
}

function contextOptions(
  counter: TokenCounter,
  request: { settings: EndpointSettings; state: ClientState; model: LanguageModel; boundaries: HistoryBoundary[] },
): ContextOptions {
  const calibration = request.state.calibration?.[calibrationKey(request.settings)];
  return {
    counter,
    limitTokens: promptLimitOf(contextWindowOf(request.settings)),
    boundaries: request.boundaries,
    declaresTools: request.settings.kind !== 'ai-sdk-chat',
    ...(calibration ? { calibration } : {}),
    summarise: async (covered, maxOutputTokens, signal) => {
      const { summariseWithModel } = await import('../context/summarise-history');
      return summariseWithModel({ model: request.model, covered, maxOutputTokens, signal });
    },
  };
}

/** The tokenizer loads beside the agent loop, with the first turn. */
export const turnContext = {
  async load() {
    const counter = await loadTokenCounter();
    return { options: (request: Parameters<typeof contextOptions>[1]) => contextOptions(counter, request) };
  },
};
