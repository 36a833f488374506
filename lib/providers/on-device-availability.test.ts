import { describe, expect, it } from 'vitest';
import { isOnDeviceOffered, onDeviceStatusText, type OnDeviceAvailability } from './on-device-availability';

describe('offering the on-device kind', () => {
  it.each<[OnDeviceAvailability, boolean]>([
    // Firefox has no LanguageModel at all: absent.
    ['absent', false],
    ['unavailable', false],
    ['downloadable', true],
    ['downloading', true],
    ['available', true],
  ])('%s → offered: %s', (availability, offered) => {
    expect(isOnDeviceOffered({ availability })).toBe(offered);
  });

  it('explains in one line why it is not there, and says how far a download is', () => {
    expect(onDeviceStatusText({ availability: 'absent' })).toContain('Firefox has none');
    expect(onDeviceStatusText({ availability: 'unavailable' })).toContain('hardware');
    expect(onDeviceStatusText({ availability: 'downloadable' })).toContain('Not downloaded yet');
    expect(onDeviceStatusText({ availability: 'downloading', progress: 0.42 })).toContain('42 %');
    for (const availability of ['absent', 'unavailable', 'downloadable', 'downloading', 'available'] as const)
      expect(onDeviceStatusText({ availability })).not.toContain('\n');
  });
});
