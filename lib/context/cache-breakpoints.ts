import type { ModelMessage, SystemModelMessage } from 'ai';
import { observationOf } from './age-tool-results';
import { toolResultValue } from './tool-result-value';

const CACHE_CONTROL = { type: 'ephemeral' } as const;

/** The system prompt as the end of Anthropic's first cached block, which holds the tool definitions and the prompt. */
export function cachedSystem(system: string): SystemModelMessage {
  return { role: 'system', content: system, providerOptions: { anthropic: { cacheControl: CACHE_CONTROL } } };
}

/**
 * Marks where Anthropic caches the history (4 marks at most; the system prompt has one): the last message before the
 * oldest page observation sent in full, where the next batch of stubs will change the request, and the last message,
 * which the next request extends. Other providers ignore the marks: they cache shared prefixes by themselves.
 */
export function withCacheBreakpoints(messages: readonly ModelMessage[]): ModelMessage[] {
  const marked = new Set<number>();
  if (messages.length > 0) marked.add(messages.length - 1);
  const firstInFull = messages.findIndex(carriesObservationInFull);
  if (firstInFull > 0) marked.add(firstInFull - 1);
  return messages.map((message, index) => (marked.has(index) ? withCacheControl(message) : message));
}

function carriesObservationInFull(message: ModelMessage): boolean {
  if (message.role !== 'tool') return false;
  return message.content.some((part) => {
    if (part.type !== 'tool-result') return false;
    const { value } = toolResultValue(part.output);
    return value !== undefined && observationOf(value) !== undefined;
  });
}

function withCacheControl(message: ModelMessage): ModelMessage {
  const anthropic = { ...message.providerOptions?.anthropic, cacheControl: CACHE_CONTROL };
  return { ...message, providerOptions: { ...message.providerOptions, anthropic } } as ModelMessage;
}
