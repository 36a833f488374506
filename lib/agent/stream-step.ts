import { streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { StepStreamMapper } from './step-stream-mapper';
import { SYSTEM_PROMPT } from './system-prompt';

export interface StreamStepInput {
  model: LanguageModel;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  mapper: StepStreamMapper;
  emit(drafts: AgentEventDraft[]): void;
}

/**
 * Streams one model request through the mapper. The AI SDK never retries (maxRetries 0): waiting on a rate
 * limit is decided by the loop, which can show it. Whatever the stream throws is kept on the mapper.
 */
export async function streamStep(input: StreamStepInput): Promise<void> {
  const { mapper, signal } = input;
  try {
    const result = streamText({ model: input.model, system: SYSTEM_PROMPT, messages: input.messages, tools: input.tools, abortSignal: signal, maxRetries: 0, onError: () => undefined });
    for await (const part of result.fullStream) {
      const drafts = mapper.map(part);
      if (drafts.length) input.emit(drafts);
    }
  } catch (error) {
    if (!signal.aborted) mapper.error ??= error;
  }
}
