import type { AgentEventDraft } from '../protocol/agent-event';
import type { TokenUsage } from '../protocol/token-usage';
import { tokenUsageFromSdk, type SdkUsage } from '../usage/token-usage-from-sdk';
import { errorText } from '../protocol/error-text';

export interface StepContext {
  sessionId: string;
  turnId: string;
  stepId: string;
  attemptId: string;
  newId(): string;
  now(): number;
}

export interface CompleteToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalidReason?: string;
}

interface OpenItem {
  kind: 'assistant' | 'reasoning';
  itemId: string;
  text: string;
  deltas: number;
}

/** The subset of the AI SDK's stream parts this mapper reads; nothing provider-specific passes through. */
export type StepStreamPart =
  | { type: 'text-start' | 'reasoning-start'; id: string }
  | { type: 'text-delta' | 'reasoning-delta'; id: string; text: string }
  | { type: 'tool-input-start'; id: string; toolName: string }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown }
  | { type: 'finish-step'; finishReason: string; rawFinishReason?: string; usage?: SdkUsage }
  | { type: 'error'; error: unknown }
  | { type: 'abort' }
  | { type: string };

const FIRST_OUTPUT_PARTS = new Set<string>(['text-delta', 'reasoning-delta', 'tool-input-start', 'tool-call']);

/** Turns one model step's stream parts into AgentEvent drafts, and remembers what the step produced. */
export class StepStreamMapper {
  private readonly items = new Map<string, OpenItem>();
  private readonly order: OpenItem[] = [];
  private readonly previews = new Map<string, { toolName: string; count: number }>();
  readonly toolCalls: CompleteToolCall[] = [];
  finishReason: string | undefined;
  private rawFinishReason: string | undefined;
  /** What the provider reported for this call; undefined when it reported nothing. */
  usage: TokenUsage | undefined;
  error: unknown;
  aborted = false;
  /** When the first text, reasoning or tool call of this attempt arrived: its time to first token. */
  firstOutputAt: number | undefined;

  private readonly stepIds: { sessionId: string; turnId: string; stepId: string; attemptId: string };

  constructor(private readonly context: StepContext) {
    const { sessionId, turnId, stepId, attemptId } = context;
    this.stepIds = { sessionId, turnId, stepId, attemptId };
  }

  map(part: StepStreamPart): AgentEventDraft[] {
    if (this.firstOutputAt === undefined && FIRST_OUTPUT_PARTS.has(part.type)) this.firstOutputAt = this.context.now();
    switch (part.type) {
      case 'text-delta':
      case 'reasoning-delta':
        return this.delta(part as { type: 'text-delta' | 'reasoning-delta'; id: string; text: string });
      case 'tool-input-start': {
        const start = part as { id: string; toolName: string };
        this.previews.set(start.id, { toolName: start.toolName, count: 0 });
        return [];
      }
      case 'tool-input-delta':
        return this.toolPreview(part as { id: string; delta: string });
      case 'tool-call': {
        const call = part as Extract<StepStreamPart, { type: 'tool-call' }>;
        this.toolCalls.push({
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
          ...(call.invalid ? { invalidReason: errorText(call.error, { json: true }) } : {}),
        });
        return [];
      }
      case 'finish-step': {
        const finish = part as { finishReason: string; rawFinishReason?: string; usage?: SdkUsage };
        this.finishReason = finish.finishReason;
        this.rawFinishReason = finish.rawFinishReason;
        this.usage = tokenUsageFromSdk(finish.usage);
        return [];
      }
      case 'error':
        this.error = (part as { error: unknown }).error;
        return [];
      case 'abort':
        this.aborted = true;
        return [];
      default:
        return [];
    }
  }

  private delta(part: { type: 'text-delta' | 'reasoning-delta'; id: string; text: string }): AgentEventDraft[] {
    if (!part.text) return [];
    const kind = part.type === 'text-delta' ? 'assistant' : 'reasoning';
    const key = `${kind}:${part.id}`;
    let item = this.items.get(key);
    if (!item) {
      item = { kind, itemId: this.context.newId(), text: '', deltas: 0 };
      this.items.set(key, item);
      this.order.push(item);
    }
    const index = item.deltas;
    item.text += part.text;
    item.deltas += 1;
    // Fields spelled out rather than spread: this runs once per delta, and a spread with more fields after it is many times slower in V8.
    const { sessionId, turnId, stepId, attemptId } = this.stepIds;
    return [
      {
        sessionId,
        turnId,
        stepId,
        attemptId,
        itemId: item.itemId,
        type: kind === 'assistant' ? 'assistant/delta' : 'reasoning/delta',
        time: this.context.now(),
        data: { index, text: part.text },
      },
    ];
  }

  private toolPreview(part: { id: string; delta: string }): AgentEventDraft[] {
    const preview = this.previews.get(part.id);
    if (!preview || !part.delta) return [];
    const index = preview.count;
    preview.count += 1;
    const { sessionId, turnId, stepId } = this.context;
    return [
      {
        type: 'tool/input-delta',
        sessionId,
        turnId,
        stepId,
        toolCallId: part.id,
        time: this.context.now(),
        data: { toolName: preview.toolName, index, delta: part.delta },
      },
    ];
  }

  /**
   * Whether the provider saw the reply end. A body that closes without its closing frames reaches streamText
   * as finish reason "other" with no raw reason from the provider: that is a truncation, not an answer.
   */
  finished(): boolean {
    if (this.finishReason === undefined) return false;
    return !(this.finishReason === 'other' && this.rawFinishReason === undefined);
  }

  /** Whether this attempt showed anything: text, reasoning, or a tool call being written. */
  hasOutput(): boolean {
    return this.order.length > 0 || this.previews.size > 0 || this.toolCalls.length > 0;
  }

  ids() {
    return { ...this.stepIds };
  }

  /** Final events for the step's text and reasoning: completed, or interrupted with the partial text. */
  finalItems(outcome: { interrupted: false } | { interrupted: true; reason: string }): AgentEventDraft[] {
    return this.order.map((item) => {
      const base = { ...this.ids(), itemId: item.itemId, time: this.context.now() };
      if (!outcome.interrupted)
        return {
          ...base,
          type: item.kind === 'assistant' ? 'assistant/completed' : 'reasoning/completed',
          data: { text: item.text },
        } as AgentEventDraft;
      return {
        ...base,
        type: item.kind === 'assistant' ? 'assistant/interrupted' : 'reasoning/interrupted',
        data: { text: item.text, reason: outcome.reason },
      } as AgentEventDraft;
    });
  }

  assistantText(): string {
    return this.order
      .filter((item) => item.kind === 'assistant')
      .map((item) => item.text)
      .join('');
  }
}
