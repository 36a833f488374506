import type { ToolResultPart } from 'ai';
import { jsonValueSchema, type JsonValue } from '../protocol/json-value';

/**
 * The JSON a tool result part was made from (`toolResultContent` writes it as the value, or as the first line of its
 * text when images go along), and whether images go with it.
 */
export function toolResultValue(output: ToolResultPart['output']): { value: JsonValue | undefined; images: boolean } {
  if (output.type === 'json') return { value: output.value as JsonValue, images: false };
  if (output.type === 'text') return { value: firstLineJson(output.value), images: false };
  if (output.type === 'content') {
    const first = output.value[0];
    const images = output.value.some((part) => part.type !== 'text');
    return { value: first?.type === 'text' ? firstLineJson(first.text) : undefined, images };
  }
  return { value: undefined, images: false };
}

/** JSON.stringify never writes a line break, so the first line of such a text is the whole value. */
function firstLineJson(text: string): JsonValue | undefined {
  const line = text.split('\n', 1)[0];
  try {
    const parsed = jsonValueSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
