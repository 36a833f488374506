import type { ModelFinishReason, ModelStreamEvent } from './model-stream-event';

export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Part of completionTokens; set only by a script that gives its usage. */
  readonly reasoningTokens?: number;
  /** Part of promptTokens; set only by a script that gives its usage. */
  readonly cachedTokens?: number;
}

export interface OpenAIChatEncoderContext {
  /** e.g. `chatcmpl-scripted-3` */
  readonly completionId: string;
  /** Unix seconds. */
  readonly created: number;
  readonly model: string;
  readonly usage: TokenUsage;
  /** Mirrors the request's `stream_options.include_usage`: adds `usage: null` to every chunk and a final usage chunk. */
  readonly includeUsageChunk?: boolean;
}

export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: {
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal: null;
      reasoning_content?: string;
      tool_calls?: OpenAIChatToolCall[];
    };
    logprobs: null;
    finish_reason: OpenAIChatFinishReason | null;
  }[];
  usage: OpenAIUsage;
}

type OpenAIChatFinishReason = 'stop' | 'tool_calls';

interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

type ChunkDelta = Record<string, unknown>;

const systemFingerprint = 'fp_scripted';

const finishReasons: Record<ModelFinishReason, OpenAIChatFinishReason> = {
  stop: 'stop',
  'tool-calls': 'tool_calls',
};

/** Returns one SSE frame (`data: {...}\n\n`) per chunk, ending with `data: [DONE]\n\n` when the events finish. */
export function encodeOpenAIChatStream(
  events: readonly ModelStreamEvent[],
  context: OpenAIChatEncoderContext,
): string[] {
  const frames: string[] = [];
  const pushChunk = (delta: ChunkDelta, finishReason: OpenAIChatFinishReason | null = null): void => {
    frames.push(
      sseFrame({
        ...chunkEnvelope(context),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...(context.includeUsageChunk === true ? { usage: null } : {}),
      }),
    );
  };

  // OpenAI announces the role in the first chunk; for a reply that starts with a
  // tool call the role rides along with it, otherwise it comes with empty content.
  let roleAnnounced = false;
  const firstEvent = events[0];
  if (firstEvent !== undefined && firstEvent.type !== 'tool-call-start' && firstEvent.type !== 'finish') {
    pushChunk({ role: 'assistant', content: '', refusal: null });
    roleAnnounced = true;
  }

  for (const event of events) {
    switch (event.type) {
      case 'reasoning-delta':
        pushChunk({ reasoning_content: event.text });
        break;
      case 'text-delta':
        pushChunk({ content: event.text });
        break;
      case 'tool-call-start': {
        const toolCallDelta = {
          index: event.index,
          id: event.id,
          type: 'function',
          function: { name: event.name, arguments: '' },
        };
        pushChunk(
          roleAnnounced
            ? { tool_calls: [toolCallDelta] }
            : { role: 'assistant', content: null, tool_calls: [toolCallDelta], refusal: null },
        );
        roleAnnounced = true;
        break;
      }
      case 'tool-call-delta':
        pushChunk({ tool_calls: [{ index: event.index, function: { arguments: event.argumentsDelta } }] });
        break;
      case 'tool-call-end':
        break;
      case 'finish':
        if (!roleAnnounced) {
          pushChunk({ role: 'assistant', content: '', refusal: null });
          roleAnnounced = true;
        }
        pushChunk({}, finishReasons[event.reason]);
        if (context.includeUsageChunk === true) {
          frames.push(sseFrame({ ...chunkEnvelope(context), choices: [], usage: openAIUsage(context.usage) }));
        }
        frames.push('data: [DONE]\n\n');
        break;
    }
  }
  return frames;
}

/** The non-streaming (`stream: false`) reply for the same events. */
export function encodeOpenAIChatCompletion(
  events: readonly ModelStreamEvent[],
  context: OpenAIChatEncoderContext,
): OpenAIChatCompletion {
  let content = '';
  let reasoning = '';
  const toolCalls: OpenAIChatToolCall[] = [];
  let finishReason: OpenAIChatFinishReason | null = null;

  for (const event of events) {
    switch (event.type) {
      case 'reasoning-delta':
        reasoning += event.text;
        break;
      case 'text-delta':
        content += event.text;
        break;
      case 'tool-call-start':
        toolCalls[event.index] = { id: event.id, type: 'function', function: { name: event.name, arguments: '' } };
        break;
      case 'tool-call-delta': {
        const toolCall = toolCalls[event.index];
        if (toolCall !== undefined) toolCall.function.arguments += event.argumentsDelta;
        break;
      }
      case 'tool-call-end':
        break;
      case 'finish':
        finishReason = finishReasons[event.reason];
        break;
    }
  }

  return {
    id: context.completionId,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    system_fingerprint: systemFingerprint,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: toolCalls.length > 0 && content === '' ? null : content,
          refusal: null,
          ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: openAIUsage(context.usage),
  };
}

function chunkEnvelope(context: OpenAIChatEncoderContext) {
  return {
    id: context.completionId,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: systemFingerprint,
  } as const;
}

function openAIUsage(usage: TokenUsage): OpenAIUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function sseFrame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}
