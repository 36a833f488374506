import {
  googleDailyQuotaExhausted,
  googleRetryDelayMs,
  parseProviderErrorBody,
  type ProviderErrorBody,
} from './provider-error-body';

/** What an endpoint answered instead of a stream. Header names in lower case. */
export interface HttpFailure {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

export interface RetryPolicyOptions {
  /** Retries already made for this step: 0 before the first. */
  retriesSoFar: number;
  /** Wall clock in ms, for a Retry-After given as an HTTP date. */
  now: number;
  maxRetries?: number;
  /** The longest wait Splitbrain sits through on its own. */
  capMs?: number;
}

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; message: string; code: 'quota' | 'rate-limit' | 'http' };

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_RETRY_CAP_MS = 60_000;
/** Statuses that mean "not now": rate limited, unavailable, and Anthropic's overloaded. */
const RETRYABLE_STATUSES = new Set([429, 503, 529]);

/**
 * Decides whether a failed model request is worth repeating and after how long: the endpoint's own hint
 * (`retry-after-ms`, `Retry-After` in seconds or as an HTTP date, Google's RetryInfo) when it gives one,
 * else a short backoff; never for an exhausted quota, never past the cap.
 */
export function retryDecision(failure: HttpFailure, options: RetryPolicyOptions): RetryDecision {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const capMs = options.capMs ?? DEFAULT_RETRY_CAP_MS;
  const body = parseProviderErrorBody(failure.body);
  const detail = providerMessage(failure, body);
  const label = `HTTP ${failure.status}${detail ? `: ${detail}` : ''}`;
  const sentence = /[.!?]$/.test(label) ? label : `${label}.`;
  if (!RETRYABLE_STATUSES.has(failure.status)) return { retry: false, code: 'http', message: label };
  if (failure.status === 429 && quotaExhausted(body, detail)) {
    return {
      retry: false,
      code: 'quota',
      message: `Quota exhausted (${label}). Not retried: waiting will not help; check the plan or billing of this endpoint, or switch endpoints in Settings.`,
    };
  }
  const hintMs = retryHintMs(failure, body, options.now);
  if (options.retriesSoFar >= maxRetries)
    return { retry: false, code: 'rate-limit', message: `${sentence} Gave up after ${maxRetries} retries.` };
  if (hintMs !== undefined && hintMs > capMs) {
    return {
      retry: false,
      code: 'rate-limit',
      message: `${sentence} The endpoint asks to wait ${seconds(hintMs)}, longer than the ${seconds(capMs)} Splitbrain waits on its own; retry later.`,
    };
  }
  const delayMs = hintMs ?? backoffMs(options.retriesSoFar);
  const what = failure.status === 429 ? 'Rate limited' : 'The endpoint is overloaded';
  const wait =
    hintMs !== undefined
      ? `the endpoint asked to wait ${seconds(hintMs)}`
      : `waiting ${seconds(delayMs)} before retrying`;
  return { retry: true, delayMs, reason: `${what} (${label}); ${wait}.` };
}

/** The endpoint's hint in ms, from the most precise source it gave. */
function retryHintMs(failure: HttpFailure, body: ProviderErrorBody | undefined, now: number): number | undefined {
  const milliseconds = failure.headers['retry-after-ms']?.trim();
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds)) return Math.round(Number(milliseconds));
  const retryAfter = failure.headers['retry-after']?.trim();
  if (retryAfter && /^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
  if (retryAfter) {
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return body ? googleRetryDelayMs(body) : undefined;
}

function quotaExhausted(body: ProviderErrorBody | undefined, detail: string): boolean {
  if (body?.codes.some((code) => code === 'insufficient_quota' || code === 'billing_hard_limit_reached')) return true;
  if (body && googleDailyQuotaExhausted(body)) return true;
  return /credit balance is too low|insufficient[_ ]quota/i.test(detail);
}

function providerMessage(failure: HttpFailure, body: ProviderErrorBody | undefined): string {
  const text = body?.message ?? (failure.body.trim().startsWith('<') ? '' : failure.body);
  return text.replace(/\s+/g, ' ').trim().slice(0, 600);
}

function backoffMs(retriesSoFar: number): number {
  return Math.min(2000 * 2 ** retriesSoFar, 16_000);
}

function seconds(milliseconds: number): string {
  const value = milliseconds / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}
