import type { JsonObject, JsonValue } from '../protocol/json-value';

function record(value: JsonValue | undefined): Record<string, JsonValue> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/** The parameter values a target tool's result tells of: what it read, set or reset (none for another tool). */
export function reportedValues(toolName: string, output: Record<string, JsonValue>): JsonObject | undefined {
  if (toolName === 'setParameter' || toolName === 'setParameters') return record(output.applied);
  if (toolName === 'resetTarget') return record(output.values);
  if (toolName !== 'getParameters') return undefined;
  const read: JsonObject = {};
  for (const group of Object.values(record(output.parameters) ?? {}))
    for (const [name, spec] of Object.entries(record(group) ?? {})) {
      const value = record(spec)?.value;
      if (value !== undefined) read[name] = value;
    }
  return read;
}
