import { describe, expect, it } from 'vitest';
import { targetManifestSchema } from '../protocol/target-manifest';
import { defaultValues, mcpAppTools, parameterJsonSchema } from './mcp-app-target';

const manifest = targetManifestSchema.parse({
  id: 'my-gauge',
  title: 'Gauge',
  description: 'A gauge.',
  entry: 'index.html',
  params: {
    settings: {
      level: { type: 'number', unit: 'm', min: 0, max: 10, value: 2, description: 'How high.' },
      ticks: { type: 'integer', min: 1, value: 5 },
      on: { type: 'boolean', value: true },
      label: { type: 'string', maxLength: 20, value: 'x' },
      mode: { type: 'enum', options: ['a', 'b'], value: 'a' },
      tint: { type: 'color', value: '#112233' },
      position: { type: 'array', length: 3, min: -1, max: 1, value: [0, 0, 0] },
    },
  },
});

describe('a target as MCP App tools', () => {
  it('maps each parameter spec to the JSON Schema of its value, with range, unit and options', () => {
    const specs = manifest.params.settings;
    expect(parameterJsonSchema(specs.level)).toEqual({
      type: 'number',
      minimum: 0,
      maximum: 10,
      description: 'How high. Unit: m.',
    });
    expect(parameterJsonSchema(specs.ticks)).toEqual({ type: 'integer', minimum: 1 });
    expect(parameterJsonSchema(specs.on)).toEqual({ type: 'boolean' });
    expect(parameterJsonSchema(specs.label)).toEqual({ type: 'string', maxLength: 20 });
    expect(parameterJsonSchema(specs.mode)).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(parameterJsonSchema(specs.tint)).toEqual({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$' });
    expect(parameterJsonSchema(specs.position)).toEqual({
      type: 'array',
      items: { type: 'number', minimum: -1, maximum: 1 },
      minItems: 3,
      maxItems: 3,
    });
  });

  it('offers read, set and reset, named after the target, each naming its ui:// resource', () => {
    const tools = mcpAppTools(manifest);
    expect(tools.map((tool) => [tool.name, tool.action])).toEqual([
      ['my_gauge_get_parameters', 'get_parameters'],
      ['my_gauge_set_parameters', 'set_parameters'],
      ['my_gauge_reset', 'reset'],
    ]);
    expect(tools.every((tool) => tool._meta.ui.resourceUri === 'ui://splitbrain/my-gauge')).toBe(true);
    expect(Object.keys(tools[1].inputSchema.properties)).toEqual([
      'level',
      'ticks',
      'on',
      'label',
      'mode',
      'tint',
      'position',
    ]);
    expect(defaultValues(manifest)).toMatchObject({ level: 2, mode: 'a', position: [0, 0, 0] });
  });
});
