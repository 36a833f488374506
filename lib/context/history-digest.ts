import type { ModelMessage } from 'ai';

const USER_CHARACTERS = 600;
const ASSISTANT_CHARACTERS = 300;
const INPUT_CHARACTERS = 160;
const OUTCOME_CHARACTERS = 160;
/** Keys of tool inputs and outputs that name what a call touched. */
const TOUCHED_KEYS = ['targetId', 'artifactId', 'jobId', 'url', 'observationId', 'name'] as const;

function clip(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

function messageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function outcomeOf(output: unknown): string {
  const value = (output as { type?: string; value?: unknown } | undefined)?.value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (record.ok === false)
      return `failed: ${clip(String(record.error ?? record.message ?? 'error'), OUTCOME_CHARACTERS)}`;
    if (record.ok === true) return 'ok';
  }
  return clip(JSON.stringify(value ?? output ?? null), OUTCOME_CHARACTERS);
}

function touched(value: unknown, into: Set<string>, depth = 0): void {
  if (!value || typeof value !== 'object' || depth > 2) return;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if ((TOUCHED_KEYS as readonly string[]).includes(key) && (typeof child === 'string' || typeof child === 'number'))
      into.add(`${key} ${clip(String(child), 200)}`);
    else touched(child, into, depth + 1);
  }
}

/**
 * A summary written without a model: every user request (clipped), the assistant's words, each tool call with its
 * outcome, and what the calls touched. Deterministic, so it is the same after any restart.
 */
export function historyDigest(messages: readonly ModelMessage[]): string {
  const lines: string[] = [];
  const outcomes = new Map<string, string>();
  const things = new Set<string>();
  for (const message of messages)
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result') {
          outcomes.set(part.toolCallId, outcomeOf(part.output));
          touched((part.output as { value?: unknown }).value, things);
        }
  for (const message of messages) {
    if (message.role === 'user') lines.push(`User: ${clip(messageText(message), USER_CHARACTERS)}`);
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const text = messageText(message);
    if (text.trim()) lines.push(`Assistant: ${clip(text, ASSISTANT_CHARACTERS)}`);
    for (const part of message.content)
      if (part.type === 'tool-call') {
        touched(part.input, things);
        const input = clip(JSON.stringify(part.input ?? null), INPUT_CHARACTERS);
        lines.push(`- ${part.toolName} ${input} → ${outcomes.get(part.toolCallId) ?? 'no result'}`);
      }
  }
  if (things.size) lines.push(`Touched: ${[...things].slice(0, 60).join('; ')}`);
  return `(Digest of earlier turns, written without the model.)\n${lines.join('\n')}`;
}
