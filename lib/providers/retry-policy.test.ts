import { describe, expect, it } from 'vitest';
import { anthropicErrorBody } from '../../scripts/scripted-model-server/anthropic-error-body';
import { googleErrorBody, googleQuotaMessage } from '../../scripts/scripted-model-server/google-error-body';
import { openAIErrorBody, openAIQuotaExhaustedBody } from '../../scripts/scripted-model-server/openai-error-body';
import { retryDecision, type HttpFailure } from './retry-policy';

const now = Date.UTC(2025, 0, 1, 12, 0, 0);
const first = { retriesSoFar: 0, now };

function failure(status: number, body: unknown, headers: Record<string, string> = {}): HttpFailure {
  return { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

const rateLimited = openAIErrorBody('Rate limit reached. Please try again in 2s.', 'rate_limit_exceeded');

describe('retryDecision', () => {
  it('honours retry-after-ms before Retry-After', () => {
    expect(retryDecision(failure(429, rateLimited, { 'retry-after-ms': '1500', 'retry-after': '2' }), first)).toEqual({
      retry: true,
      delayMs: 1500,
      reason: 'Rate limited (HTTP 429: Rate limit reached. Please try again in 2s.); the endpoint asked to wait 1.5 s.',
    });
  });

  it('honours Retry-After in seconds and as an HTTP date', () => {
    expect(retryDecision(failure(429, rateLimited, { 'retry-after': '2' }), first)).toMatchObject({
      retry: true,
      delayMs: 2000,
    });
    const date = new Date(now + 7000).toUTCString();
    expect(retryDecision(failure(503, 'Service Unavailable', { 'retry-after': date }), first)).toMatchObject({
      retry: true,
      delayMs: 7000,
    });
    const past = new Date(now - 5000).toUTCString();
    expect(retryDecision(failure(503, 'busy', { 'retry-after': past }), first)).toMatchObject({
      retry: true,
      delayMs: 0,
    });
  });

  it("honours Gemini's RetryInfo in the body", () => {
    const body = googleErrorBody(429, googleQuotaMessage, { retryDelaySeconds: 2 });
    const decision = retryDecision(failure(429, body), first);
    expect(decision).toMatchObject({ retry: true, delayMs: 2000 });
    expect(decision.retry && decision.reason).toContain('the endpoint asked to wait 2 s');
    expect(
      retryDecision(failure(429, [googleErrorBody(429, 'slow down', { retryDelaySeconds: 1.5 })]), first),
    ).toMatchObject({ retry: true, delayMs: 1500 });
  });

  it('does not retry an exhausted quota, and says so: OpenAI insufficient_quota, Gemini per-day QuotaFailure, Anthropic credit', () => {
    const bodies = [
      openAIQuotaExhaustedBody(),
      googleErrorBody(429, googleQuotaMessage, { quotaExhausted: true }),
      anthropicErrorBody('Your credit balance is too low to access the Anthropic API.', 'rate_limit_error'),
    ];
    for (const body of bodies) {
      const decision = retryDecision(failure(429, body, { 'retry-after': '1' }), first);
      expect(decision).toMatchObject({ retry: false, code: 'quota' });
      expect(!decision.retry && decision.message).toMatch(
        /^Quota exhausted \(HTTP 429: .+\)\. Not retried: waiting will not help/,
      );
    }
  });

  it('backs off 2, 4, 8 s without a hint, and gives up after the last retry', () => {
    const overloaded = failure(529, anthropicErrorBody('Overloaded', 'overloaded_error'));
    expect([0, 1, 2].map((retriesSoFar) => retryDecision(overloaded, { retriesSoFar, now }))).toMatchObject([
      {
        retry: true,
        delayMs: 2000,
        reason: 'The endpoint is overloaded (HTTP 529: Overloaded); waiting 2 s before retrying.',
      },
      { retry: true, delayMs: 4000 },
      { retry: true, delayMs: 8000 },
    ]);
    expect(retryDecision(overloaded, { retriesSoFar: 3, now })).toEqual({
      retry: false,
      code: 'rate-limit',
      message: 'HTTP 529: Overloaded. Gave up after 3 retries.',
    });
  });

  it('does not sit through a hint longer than the cap', () => {
    const decision = retryDecision(failure(429, rateLimited, { 'retry-after': '300' }), { ...first, capMs: 60_000 });
    expect(decision).toEqual({
      retry: false,
      code: 'rate-limit',
      message:
        'HTTP 429: Rate limit reached. Please try again in 2s. The endpoint asks to wait 300 s, longer than the 60 s Splitbrain waits on its own; retry later.',
    });
  });

  it('never retries other statuses, and reports status and provider message', () => {
    expect(
      retryDecision(
        failure(
          401,
          openAIErrorBody('Incorrect API key provided: sk-te***st.', 'invalid_request_error', 'invalid_api_key'),
        ),
        first,
      ),
    ).toEqual({ retry: false, code: 'http', message: 'HTTP 401: Incorrect API key provided: sk-te***st.' });
    expect(retryDecision(failure(500, '<html><body>Bad gateway</body></html>'), first)).toEqual({
      retry: false,
      code: 'http',
      message: 'HTTP 500',
    });
    expect(retryDecision(failure(404, 'Not found\n'), first)).toEqual({
      retry: false,
      code: 'http',
      message: 'HTTP 404: Not found',
    });
  });
});
