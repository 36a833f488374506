import { z } from 'zod';
import type { JsonValue } from '../protocol/json-value';

const JSON_SCHEMA_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

export type McpSchemaCheck = { ok: true; schema: { [key: string]: JsonValue } } | { ok: false; reason: string };

const objectSchema = z.record(z.string(), z.unknown());

function checkNode(node: unknown, path: string, depth: number): string | undefined {
  if (depth > 32) return `${path}: nested deeper than 32 levels.`;
  if (typeof node === 'boolean') return undefined;
  const parsed = objectSchema.safeParse(node);
  if (!parsed.success || Array.isArray(node)) return `${path}: a schema must be an object or a boolean.`;
  const schema = parsed.data;
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  for (const type of types) {
    if (typeof type !== 'string' || !JSON_SCHEMA_TYPES.has(type))
      return `${path}.type: "${String(type)}" is not a JSON Schema type.`;
  }
  if (schema.properties !== undefined) {
    const properties = objectSchema.safeParse(schema.properties);
    if (!properties.success || Array.isArray(schema.properties)) return `${path}.properties: must be an object.`;
    for (const [key, child] of Object.entries(properties.data)) {
      const problem = checkNode(child, `${path}.properties.${key}`, depth + 1);
      if (problem) return problem;
    }
  }
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((item) => typeof item === 'string'))
  ) {
    return `${path}.required: must be an array of strings.`;
  }
  if (schema.items !== undefined && !Array.isArray(schema.items)) {
    const problem = checkNode(schema.items, `${path}.items`, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Checks a server's `inputSchema` is a JSON Schema for an object (what providers take as tool parameters) and
 * that it survives a JSON round trip. A tool that fails is left out with this reason, never passed on.
 */
export function checkMcpInputSchema(inputSchema: unknown): McpSchemaCheck {
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(inputSchema ?? null)) as unknown;
  } catch {
    return { ok: false, reason: 'inputSchema is not JSON.' };
  }
  const parsed = objectSchema.safeParse(copy);
  if (!parsed.success || Array.isArray(copy)) return { ok: false, reason: 'inputSchema must be an object.' };
  if (parsed.data.type !== 'object') return { ok: false, reason: 'inputSchema.type must be "object".' };
  const problem = checkNode(parsed.data, 'inputSchema', 0);
  if (problem) return { ok: false, reason: problem };
  return { ok: true, schema: parsed.data as { [key: string]: JsonValue } };
}
