import type { JsonValue } from '../protocol/json-value';
import type { ParameterSpec, TargetManifest } from '../protocol/target-manifest';

/** The MIME type of an MCP App's HTML resource. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** Where a target's HTML is served as an MCP App: `ui://splitbrain/<target id>`. */
export function mcpAppResourceUri(targetId: string): string {
  return `ui://splitbrain/${targetId}`;
}

export type McpAppAction = 'get_parameters' | 'set_parameters' | 'reset';

/** One tool of a target served as an MCP App: an action of the target, with its input's JSON Schema. */
export interface McpAppTool {
  name: string;
  action: McpAppAction;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonValue>; additionalProperties: false };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
  _meta: { ui: { resourceUri: string } };
}

function describe(spec: ParameterSpec): string | undefined {
  const parts = [spec.description, spec.unit ? `Unit: ${spec.unit}.` : undefined].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

/** A parameter spec of the manifest as the JSON Schema of that parameter's value. */
export function parameterJsonSchema(spec: ParameterSpec): Record<string, JsonValue> {
  const description = describe(spec);
  const common: Record<string, JsonValue> = description ? { description } : {};
  const bounds = (from: { min?: number; max?: number }) => ({
    ...(from.min !== undefined ? { minimum: from.min } : {}),
    ...(from.max !== undefined ? { maximum: from.max } : {}),
  });
  switch (spec.type) {
    case 'number':
    case 'integer':
      return { ...common, type: spec.type, ...bounds(spec) };
    case 'array':
      return {
        ...common,
        type: 'array',
        items: { type: 'number', ...bounds(spec) },
        minItems: spec.length,
        maxItems: spec.length,
      };
    case 'boolean':
      return { ...common, type: 'boolean' };
    case 'string':
      return { ...common, type: 'string', ...(spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}) };
    case 'enum':
      return { ...common, type: 'string', enum: spec.options };
    case 'color':
      return { ...common, type: 'string', pattern: '^#[0-9a-fA-F]{6}$' };
  }
}

/**
 * A target's actions as MCP App tools, each naming the target's `ui://` resource: read the parameters, set some
 * of them (every parameter of the manifest an optional property, with its range and unit), reset to defaults.
 */
export function mcpAppTools(manifest: TargetManifest): McpAppTool[] {
  const _meta = { ui: { resourceUri: mcpAppResourceUri(manifest.id) } };
  const parameters = Object.values(manifest.params).flatMap((group) => Object.entries(group));
  const tool = (action: McpAppAction, title: string, description: string, properties: Record<string, JsonValue>) => ({
    name: `${manifest.id.replace(/-/g, '_')}_${action}`,
    action,
    title: `${manifest.title}: ${title}`,
    description,
    inputSchema: { type: 'object' as const, properties, additionalProperties: false as const },
    annotations: {
      readOnlyHint: action === 'get_parameters',
      destructiveHint: action === 'reset',
      idempotentHint: true,
    },
    _meta,
  });
  return [
    tool(
      'get_parameters',
      'read parameters',
      `${manifest.description} Returns every parameter's current value; call it before setting any.`,
      {},
    ),
    tool(
      'set_parameters',
      'set parameters',
      `Sets parameters of ${manifest.title}; a value out of range is clamped, an unknown name is refused with the closest ones. Nothing is changed unless every value is valid.`,
      Object.fromEntries(parameters.map(([name, spec]) => [name, parameterJsonSchema(spec)])),
    ),
    tool('reset', 'reset', `Resets every parameter of ${manifest.title} to its default.`, {}),
  ];
}

/** Every parameter's default, as the served app starts. */
export function defaultValues(manifest: TargetManifest): Record<string, JsonValue> {
  return Object.fromEntries(
    Object.values(manifest.params).flatMap((group) => Object.entries(group).map(([name, spec]) => [name, spec.value])),
  );
}
