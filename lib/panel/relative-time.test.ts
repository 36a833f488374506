import { describe, expect, it } from 'vitest';
import { relativeTime, secondsUntil } from './relative-time';

describe('relativeTime', () => {
  const now = Date.UTC(2025, 0, 31, 12);
  it('reads naturally', () => {
    expect(relativeTime(now - 10_000, now, 'en')).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now, 'en')).toBe('5 minutes ago');
    expect(relativeTime(now - 26 * 3600_000, now, 'en')).toBe('yesterday');
    expect(relativeTime(now - 3 * 7 * 24 * 3600_000, now, 'en')).toBe('3 weeks ago');
  });
});

describe('secondsUntil', () => {
  it('rounds up and stops at zero', () => {
    expect(secondsUntil(2_100, 0)).toBe(3);
    expect(secondsUntil(0, 5_000)).toBe(0);
  });
});
