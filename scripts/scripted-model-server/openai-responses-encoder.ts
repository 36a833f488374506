import type { ModelStreamEvent } from './model-stream-event';
import type { TokenUsage } from './openai-chat-encoder';
import { sseFrame } from './sse-frame';

export interface OpenAIResponsesEncoderContext {
  /** e.g. `resp_scripted_3`; item ids are derived from it. */
  readonly responseId: string;
  /** Unix seconds. */
  readonly created: number;
  readonly model: string;
  readonly usage: TokenUsage;
  /** Mirrors `include: ['reasoning.encrypted_content']`: reasoning items then carry `encrypted_content`. */
  readonly includeEncryptedReasoning?: boolean;
  /** Mirrors the request's `store` (default true). */
  readonly store?: boolean;
}

interface SummaryText {
  type: 'summary_text';
  text: string;
}

interface OutputText {
  type: 'output_text';
  annotations: never[];
  logprobs: never[];
  text: string;
}

export type OpenAIResponsesOutputItem =
  | { id: string; type: 'reasoning'; summary: SummaryText[]; encrypted_content?: string }
  | { id: string; type: 'message'; status: 'in_progress' | 'completed'; content: OutputText[]; role: 'assistant' }
  | {
      id: string;
      type: 'function_call';
      status: 'in_progress' | 'completed';
      arguments: string;
      call_id: string;
      name: string;
    };

type OpenItem =
  | { readonly kind: 'reasoning'; readonly id: string; readonly outputIndex: number; text: string }
  | { readonly kind: 'message'; readonly id: string; readonly outputIndex: number; text: string }
  | {
      readonly kind: 'function_call';
      readonly id: string;
      readonly outputIndex: number;
      readonly callId: string;
      readonly name: string;
      text: string;
    };

interface EncodedResponse {
  readonly frames: string[];
  readonly output: OpenAIResponsesOutputItem[];
  readonly finished: boolean;
}

/**
 * One SSE event per frame, each with an `event:` line and a `sequence_number`
 * counting from 0, in the order api.openai.com sends them: created, in_progress,
 * then per output item added → deltas → done, and finally response.completed.
 * Without a `finish` event the stream just stops after the last delta.
 */
export function encodeOpenAIResponsesStream(
  events: readonly ModelStreamEvent[],
  context: OpenAIResponsesEncoderContext,
): string[] {
  return encodeResponse(events, context).frames;
}

/** The non-streaming (`stream: false`) reply: the response object that response.completed carries. */
export function encodeOpenAIResponsesResponse(
  events: readonly ModelStreamEvent[],
  context: OpenAIResponsesEncoderContext,
): Record<string, unknown> {
  const { output, finished } = encodeResponse(events, context);
  return responseObject(context, finished ? 'completed' : 'in_progress', output, finished);
}

function encodeResponse(events: readonly ModelStreamEvent[], context: OpenAIResponsesEncoderContext): EncodedResponse {
  const frames: string[] = [];
  const output: OpenAIResponsesOutputItem[] = [];
  let sequenceNumber = 0;
  let open: OpenItem | undefined;
  let finished = false;
  const itemSuffix = context.responseId.replace(/^resp_/, '');
  const push = (type: string, payload: Record<string, unknown>): void => {
    frames.push(sseFrame({ type, sequence_number: sequenceNumber, ...payload }, { event: type }));
    sequenceNumber += 1;
  };
  const encryptedContent = (text: string): Record<string, string> =>
    context.includeEncryptedReasoning === true
      ? { encrypted_content: `gAAAAA${Buffer.from(`scripted:${text}`, 'utf8').toString('base64')}` }
      : {};

  const close = (): void => {
    if (open === undefined) return;
    const item = open;
    open = undefined;
    const base = { item_id: item.id, output_index: item.outputIndex };
    let doneItem: OpenAIResponsesOutputItem;
    switch (item.kind) {
      case 'reasoning': {
        const part: SummaryText = { type: 'summary_text', text: item.text };
        push('response.reasoning_summary_text.done', { ...base, summary_index: 0, text: item.text });
        push('response.reasoning_summary_part.done', { ...base, summary_index: 0, part });
        doneItem = { id: item.id, type: 'reasoning', summary: [part], ...encryptedContent(item.text) };
        break;
      }
      case 'message': {
        const part: OutputText = { type: 'output_text', annotations: [], logprobs: [], text: item.text };
        push('response.output_text.done', { ...base, content_index: 0, text: item.text, logprobs: [] });
        push('response.content_part.done', { ...base, content_index: 0, part });
        doneItem = { id: item.id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
        break;
      }
      case 'function_call':
        push('response.function_call_arguments.done', { ...base, arguments: item.text });
        doneItem = {
          id: item.id,
          type: 'function_call',
          status: 'completed',
          arguments: item.text,
          call_id: item.callId,
          name: item.name,
        };
        break;
    }
    output.push(doneItem);
    push('response.output_item.done', { output_index: item.outputIndex, item: doneItem });
  };

  const openItem = (
    kind: OpenItem['kind'],
    prefix: string,
    extra: { callId: string; name: string } | undefined,
  ): OpenItem => {
    close();
    const outputIndex = output.length;
    const id = `${prefix}_${itemSuffix}_${outputIndex}`;
    let item: OpenItem;
    let addedItem: OpenAIResponsesOutputItem;
    if (kind === 'function_call' && extra !== undefined) {
      item = { kind, id, outputIndex, callId: extra.callId, name: extra.name, text: '' };
      addedItem = {
        id,
        type: 'function_call',
        status: 'in_progress',
        arguments: '',
        call_id: extra.callId,
        name: extra.name,
      };
    } else if (kind === 'reasoning') {
      item = { kind, id, outputIndex, text: '' };
      addedItem = { id, type: 'reasoning', summary: [], ...encryptedContent('') };
    } else {
      item = { kind: 'message', id, outputIndex, text: '' };
      addedItem = { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' };
    }
    push('response.output_item.added', { output_index: outputIndex, item: addedItem });
    if (item.kind === 'reasoning') {
      push('response.reasoning_summary_part.added', {
        item_id: id,
        output_index: outputIndex,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    }
    if (item.kind === 'message') {
      push('response.content_part.added', {
        item_id: id,
        output_index: outputIndex,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
    }
    open = item;
    return item;
  };

  push('response.created', { response: responseObject(context, 'in_progress', [], false) });
  push('response.in_progress', { response: responseObject(context, 'in_progress', [], false) });

  for (const event of events) {
    switch (event.type) {
      case 'reasoning-delta': {
        const item = open?.kind === 'reasoning' ? open : openItem('reasoning', 'rs', undefined);
        item.text += event.text;
        push('response.reasoning_summary_text.delta', {
          item_id: item.id,
          output_index: item.outputIndex,
          summary_index: 0,
          delta: event.text,
        });
        break;
      }
      case 'text-delta': {
        const item = open?.kind === 'message' ? open : openItem('message', 'msg', undefined);
        item.text += event.text;
        push('response.output_text.delta', {
          item_id: item.id,
          output_index: item.outputIndex,
          content_index: 0,
          delta: event.text,
          logprobs: [],
        });
        break;
      }
      case 'tool-call-start':
        openItem('function_call', 'fc', { callId: event.id, name: event.name });
        break;
      case 'tool-call-delta':
        if (open?.kind === 'function_call') {
          open.text += event.argumentsDelta;
          push('response.function_call_arguments.delta', {
            item_id: open.id,
            output_index: open.outputIndex,
            delta: event.argumentsDelta,
          });
        }
        break;
      case 'tool-call-end':
        close();
        break;
      case 'finish':
        close();
        finished = true;
        push('response.completed', { response: responseObject(context, 'completed', output, true) });
        break;
    }
  }
  return { frames, output, finished };
}

function responseObject(
  context: OpenAIResponsesEncoderContext,
  status: 'in_progress' | 'completed',
  output: readonly OpenAIResponsesOutputItem[],
  withUsage: boolean,
): Record<string, unknown> {
  const reasoningCharacters = output.reduce(
    (sum, item) => sum + (item.type === 'reasoning' ? (item.summary[0]?.text.length ?? 0) : 0),
    0,
  );
  return {
    id: context.responseId,
    object: 'response',
    created_at: context.created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: context.model,
    output: [...output],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: context.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: withUsage
      ? {
          input_tokens: context.usage.promptTokens,
          input_tokens_details: { cached_tokens: context.usage.cachedTokens ?? 0 },
          output_tokens: context.usage.completionTokens,
          output_tokens_details: {
            reasoning_tokens: context.usage.reasoningTokens ?? Math.ceil(reasoningCharacters / 4),
          },
          total_tokens: context.usage.promptTokens + context.usage.completionTokens,
        }
      : null,
    user: null,
    metadata: {},
  };
}
