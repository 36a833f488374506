/**
 * A JSON Schema without the descriptions of its fields (the schema's own top-level description stays): what a tool
 * declares when the model's window is small. The names, types, enums and limits still say what each field takes.
 */
export function withoutFieldDescriptions<T>(schema: T): T {
  return strip(schema, true) as T;
}

function strip(value: unknown, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, false));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, field]) => top || key !== 'description' || typeof field !== 'string')
      .map(([key, field]) => [key, strip(field, false)]),
  );
}
