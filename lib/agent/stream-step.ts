import { streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { AgentEventDraft } from '../protocol/agent-event';
import { DEFAULT_STREAM_IDLE_TIMEOUT_SECONDS } from '../settings/endpoint-settings';
import type { StepStreamMapper } from './step-stream-mapper';
import { cachedSystem } from '../context/cache-breakpoints';
import { SYSTEM_PROMPT } from './system-prompt';

export interface StreamStepInput {
  model: LanguageModel;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  mapper: StepStreamMapper;
  emit(drafts: AgentEventDraft[]): void;
  /** Stops the attempt when the stream yields nothing for this long, from the request on; the product default when unset. */
  idleTimeoutMs?: number;
  /** Routes the requests of one conversation to the same OpenAI prompt cache. */
  cacheKey?: string;
}

/** What a stream that went silent fails with; the loop reports it as `stalled`. */
export class StreamStalledError extends Error {
  constructor(readonly idleTimeoutMs: number) {
    super(`The model sent nothing for ${formatSeconds(idleTimeoutMs)}; the attempt was stopped.`);
    this.name = 'StreamStalledError';
  }
}

function formatSeconds(milliseconds: number): string {
  return `${Number((milliseconds / 1000).toFixed(1))} s`;
}

/**
 * Streams one model request through the mapper. The AI SDK never retries (maxRetries 0): waiting on a rate
 * limit is decided by the loop, which can show it. Whatever the stream throws is kept on the mapper.
 */
export async function streamStep(input: StreamStepInput): Promise<void> {
  const { mapper, signal } = input;
  const idleTimeoutMs = input.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_SECONDS * 1000;
  const attempt = new AbortController();
  const stopWithTurn = () => attempt.abort(signal.reason);
  if (signal.aborted) stopWithTurn();
  signal.addEventListener('abort', stopWithTurn, { once: true });
  // A connection held open without bytes never ends by itself: only this timer ends such an attempt.
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const restartIdleTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      attempt.abort();
    }, idleTimeoutMs);
  };
  try {
    restartIdleTimer();
    const result = streamText({
      model: input.model,
      system: cachedSystem(SYSTEM_PROMPT),
      messages: input.messages,
      ...(input.cacheKey ? { providerOptions: { openai: { promptCacheKey: input.cacheKey } } } : {}),
      tools: input.tools,
      abortSignal: attempt.signal,
      maxRetries: 0,
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      restartIdleTimer();
      const drafts = mapper.map(part);
      if (drafts.length) input.emit(drafts);
    }
  } catch (error) {
    if (!attempt.signal.aborted) mapper.error ??= error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stopWithTurn);
  }
  if (stalled && !signal.aborted) {
    mapper.aborted = false;
    mapper.error = new StreamStalledError(idleTimeoutMs);
  }
}
