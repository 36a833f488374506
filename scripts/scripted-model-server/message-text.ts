/**
 * The text of a message content that is either a string or a list of parts,
 * joining the parts that carry a `text` string (OpenAI `text`/`input_text`,
 * Anthropic `text` blocks, Gemini text parts, UI `text` parts).
 */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}
