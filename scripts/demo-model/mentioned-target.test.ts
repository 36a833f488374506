import { describe, expect, it } from 'vitest';
import { mentionedTarget } from './mentioned-target';

const targets = [
  { id: 'particles', title: 'Particle field', active: true },
  { id: 'synth', title: 'Step synthesizer', active: false },
  { id: 'slow-counter', title: 'Slow counter (test fixture)', active: false },
];

describe('the target a request names', () => {
  it.each([
    ['open the synth and set the tempo to 90', 'synth'],
    ['open the Step synthesizer', 'synth'],
    ['open the slow counter', 'slow-counter'],
    ['open slow-counter', 'slow-counter'],
    ['make the particles faster', 'particles'],
  ])('"%s" names %s', (request, id) => {
    expect(mentionedTarget(request, targets)?.target.id).toBe(id);
  });

  it.each(['use a triangle wave and slow the tempo to 90', 'make it slow', 'set the field of view to 60'])(
    '"%s" names no target: a word that says how to change something is no title',
    (request) => {
      expect(mentionedTarget(request, targets)).toBeUndefined();
    },
  );
});
