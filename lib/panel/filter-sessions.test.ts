import { describe, expect, it } from 'vitest';
import { filterSessions } from './filter-sessions';

const sessions = [{ title: 'Make the particles faster' }, { title: 'Café chart colours' }, { title: '粒子速度' }];

describe('filterSessions', () => {
  it('matches every word, ignoring case and accents', () => {
    expect(filterSessions(sessions, 'PARTICLES fast')).toEqual([sessions[0]]);
    expect(filterSessions(sessions, 'cafe')).toEqual([sessions[1]]);
    expect(filterSessions(sessions, '速度')).toEqual([sessions[2]]);
    expect(filterSessions(sessions, 'particles slow')).toEqual([]);
  });

  it('keeps everything for an empty query', () => {
    expect(filterSessions(sessions, '  ')).toEqual(sessions);
  });
});
