import { describe, expect, it } from 'vitest';
import { turnAnnouncement } from './turn-announcement';

describe('turnAnnouncement', () => {
  it('announces each state once, in words', () => {
    expect(turnAnnouncement(undefined)).toBe('');
    expect(turnAnnouncement({ status: 'running' })).toBe('The assistant is responding.');
    expect(turnAnnouncement({ status: 'running', retry: { until: 1, delayMs: 1, reason: 'HTTP 503' } })).toBe(
      'Connection problem, retrying: HTTP 503',
    );
    expect(turnAnnouncement({ status: 'completed' })).toBe('The assistant finished responding.');
    expect(turnAnnouncement({ status: 'aborted' })).toBe('Stopped.');
    expect(turnAnnouncement({ status: 'interrupted', reason: 'Network error' })).toBe(
      'The response was interrupted: Network error Press Retry to try again.',
    );
  });
});
