import { describe, expect, it } from 'vitest';
import { checkMcpInputSchema } from './mcp-input-schema';

describe('checkMcpInputSchema', () => {
  it('accepts an object schema with properties', () => {
    const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    expect(checkMcpInputSchema(schema)).toEqual({ ok: true, schema });
  });

  it.each([
    [null, 'inputSchema must be an object.'],
    [[], 'inputSchema must be an object.'],
    [{ type: 'string' }, 'inputSchema.type must be "object".'],
    [{ type: 'object', properties: [] }, 'inputSchema.properties: must be an object.'],
    [
      { type: 'object', properties: { a: 'string' } },
      'inputSchema.properties.a: a schema must be an object or a boolean.',
    ],
    [
      { type: 'object', properties: { a: { type: 'text' } } },
      'inputSchema.properties.a.type: "text" is not a JSON Schema type.',
    ],
    [{ type: 'object', required: 'a' }, 'inputSchema.required: must be an array of strings.'],
  ])('refuses %j with a reason', (schema, reason) => {
    expect(checkMcpInputSchema(schema)).toEqual({ ok: false, reason });
  });
});
