type WireMessage = { role: string; content?: unknown };

/** A wire message's text: its string content, or its parts' texts joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** The conversation a model request carried, as `role: text` lines (the system prompt left out). */
export function conversationOf(body: unknown): string[] {
  return (body as { messages: WireMessage[] }).messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => `${message.role}: ${textOf(message.content)}`);
}

/** The user messages a model request carried, in order. */
export function userMessagesOf(body: unknown): string[] {
  return (body as { messages: WireMessage[] }).messages
    .filter((message) => message.role === 'user')
    .map((message) => textOf(message.content));
}
