import { describe, expect, it } from 'vitest';
import { googleDuration, googleErrorBody, googleStatusName } from './google-error-body';

describe('googleDuration', () => {
  it('writes seconds with 0, 3, 6 or 9 decimals and an s, as protobuf JSON does', () => {
    expect(googleDuration(2)).toBe('2s');
    expect(googleDuration(1.5)).toBe('1.500s');
    expect(googleDuration(0.000001)).toBe('0.000001s');
    expect(googleDuration(3.000000005)).toBe('3.000000005s');
  });
});

describe('googleErrorBody', () => {
  it('names the status the way Google does', () => {
    expect([400, 401, 403, 404, 429, 500, 503].map(googleStatusName)).toEqual([
      'INVALID_ARGUMENT',
      'UNAUTHENTICATED',
      'PERMISSION_DENIED',
      'NOT_FOUND',
      'RESOURCE_EXHAUSTED',
      'INTERNAL',
      'UNAVAILABLE',
    ]);
  });

  it('adds QuotaFailure, Help and RetryInfo details for a per-minute limit', () => {
    const body = googleErrorBody(429, 'slow down', { retryDelaySeconds: 2 });
    expect(body.error.details?.map((detail) => (detail as { '@type': string })['@type'])).toEqual([
      'type.googleapis.com/google.rpc.QuotaFailure',
      'type.googleapis.com/google.rpc.Help',
      'type.googleapis.com/google.rpc.RetryInfo',
    ]);
    expect(body.error.details?.at(-1)).toEqual({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '2s',
    });
  });

  it('has a per-day QuotaFailure and no RetryInfo for an exhausted quota, and no details otherwise', () => {
    const exhausted = googleErrorBody(429, 'out', { quotaExhausted: true, retryDelaySeconds: 2 });
    expect(JSON.stringify(exhausted)).not.toContain('RetryInfo');
    expect(exhausted.error.details?.[0]).toMatchObject({
      violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }],
    });
    expect(googleErrorBody(500, 'boom')).toEqual({ error: { code: 500, message: 'boom', status: 'INTERNAL' } });
  });
});
