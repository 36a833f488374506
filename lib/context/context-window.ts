import { isRemoteEndpoint, type EndpointSettings } from '../settings/endpoint-settings';
import { knownWindowOf } from './known-model-windows';

/** Where the window of a profile comes from: the user's field, the shipped table, or a guess when neither knows. */
export type ContextWindowSource = 'profile' | 'known-model' | 'default';

export interface ContextWindow {
  /** Everything one request may hold: the prompt and the answer. */
  windowTokens: number;
  /** Kept free for the answer: the prompt has to fit in `windowTokens - reserveTokens`. */
  reserveTokens: number;
  source: ContextWindowSource;
}

/** Small enough for the local servers' usual default context; Settings says it is a guess. */
export const DEFAULT_WINDOW_TOKENS = 32_768;
/** Chrome's on-device model (Gemini Nano) takes about 6k tokens per session. */
const ON_DEVICE_WINDOW_TOKENS = 6_144;

/** A reserve an eighth of the window (at least 1,024), never more than the model can write. */
function defaultReserve(windowTokens: number, maxOutputTokens: number | undefined): number {
  const share = Math.max(1_024, Math.floor(windowTokens / 8));
  return Math.min(share, maxOutputTokens ?? share, Math.floor(windowTokens / 2));
}

/** The window and output reserve a profile's requests are kept within. */
export function contextWindowOf(settings: EndpointSettings): ContextWindow {
  const known = isRemoteEndpoint(settings) ? knownWindowOf(settings.model) : undefined;
  const fallback = settings.kind === 'chrome-on-device' ? ON_DEVICE_WINDOW_TOKENS : DEFAULT_WINDOW_TOKENS;
  const windowTokens = settings.contextWindowTokens ?? known?.contextTokens ?? fallback;
  const source: ContextWindowSource =
    settings.contextWindowTokens !== undefined ? 'profile' : known ? 'known-model' : 'default';
  const reserve = settings.outputReserveTokens ?? defaultReserve(windowTokens, known?.maxOutputTokens);
  return { windowTokens, reserveTokens: Math.min(reserve, windowTokens - 256), source };
}

/** The most a prompt may hold before it must be made smaller. */
export function promptLimitOf(window: ContextWindow): number {
  return window.windowTokens - window.reserveTokens;
}
