import { describe, expect, it } from 'vitest';
import { withoutFieldDescriptions } from './without-field-descriptions';

describe('withoutFieldDescriptions', () => {
  it('drops the descriptions of fields at any depth and keeps everything else', () => {
    const schema = {
      type: 'object',
      description: 'The tool input.',
      properties: {
        ref: { type: 'string', description: 'A ref, e.g. "e12".', maxLength: 20 },
        waitFor: {
          type: 'object',
          description: 'What to wait for.',
          properties: { condition: { type: 'string', enum: ['url', 'text'], description: 'Which.' } },
        },
        // A field named "description" is a field, not a description.
        description: { type: 'string', description: 'The note.' },
        items: { type: 'array', items: [{ type: 'number', description: 'A number.' }] },
      },
      required: ['ref'],
    };
    expect(withoutFieldDescriptions(schema)).toEqual({
      type: 'object',
      description: 'The tool input.',
      properties: {
        ref: { type: 'string', maxLength: 20 },
        waitFor: { type: 'object', properties: { condition: { type: 'string', enum: ['url', 'text'] } } },
        description: { type: 'string' },
        items: { type: 'array', items: [{ type: 'number' }] },
      },
      required: ['ref'],
    });
  });
});
