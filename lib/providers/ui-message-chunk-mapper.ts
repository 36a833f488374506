import type { LanguageModelV3FinishReason, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { NoOutputGeneratedError, type UIMessageChunk } from 'ai';

/** One parsed frame of the stream, as the AI SDK's parseJsonEventStream yields it. */
export type UIMessageChunkResult = { success: true; value: UIMessageChunk } | { success: false; error: unknown };

const EMPTY_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const UNIFIED_REASONS = new Set(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

interface PendingCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

/**
 * Reads an AI SDK UI message stream as the stream parts of one model step, so it reaches the same
 * StepStreamMapper as every provider. Tool calls the browser must run are released at `finish`; calls the
 * server ran itself (it sent their output) are left out. A stream without `finish` ends with an error part.
 */
export class UIMessageChunkMapper {
  private readonly calls = new Map<string, PendingCall>();
  private readonly previewed = new Set<string>();
  private finished = false;
  private failed = false;

  map(result: UIMessageChunkResult): LanguageModelV3StreamPart[] {
    if (!result.success) {
      this.failed = true;
      return [{ type: 'error', error: result.error }];
    }
    const chunk = result.value;
    switch (chunk.type) {
      case 'text-start':
      case 'text-end':
      case 'reasoning-start':
      case 'reasoning-end':
        return [{ type: chunk.type, id: chunk.id }];
      case 'text-delta':
      case 'reasoning-delta':
        return [{ type: chunk.type, id: chunk.id, delta: chunk.delta }];
      case 'tool-input-start':
        this.previewed.add(chunk.toolCallId);
        return [{ type: 'tool-input-start', id: chunk.toolCallId, toolName: chunk.toolName }];
      case 'tool-input-delta':
        return [{ type: 'tool-input-delta', id: chunk.toolCallId, delta: chunk.inputTextDelta }];
      case 'tool-input-available':
        return this.completeCall(
          chunk.toolCallId,
          chunk.toolName,
          JSON.stringify(chunk.input ?? {}),
          chunk.providerExecuted === true,
        );
      case 'tool-input-error':
        // The server could not parse the arguments either; streamText reports the call as invalid.
        return this.completeCall(
          chunk.toolCallId,
          chunk.toolName,
          typeof chunk.input === 'string' ? chunk.input : JSON.stringify(chunk.input ?? {}),
          chunk.providerExecuted === true,
        );
      case 'tool-output-available':
      case 'tool-output-error':
      case 'tool-output-denied':
        this.calls.delete(chunk.toolCallId);
        return [];
      case 'error':
        this.failed = true;
        return [{ type: 'error', error: new Error(chunk.errorText) }];
      case 'abort':
        this.failed = true;
        return [
          {
            type: 'error',
            error: new Error(`The server aborted the reply${chunk.reason ? `: ${chunk.reason}` : '.'}`),
          },
        ];
      case 'finish':
        return this.finish(chunk.finishReason);
      default:
        return [];
    }
  }

  /** What to add when the body has ended. */
  end(): LanguageModelV3StreamPart[] {
    if (this.finished || this.failed) return [];
    return [
      {
        type: 'error',
        error: new NoOutputGeneratedError({ message: 'The chat server closed the stream without a finish chunk.' }),
      },
    ];
  }

  private completeCall(
    toolCallId: string,
    toolName: string,
    text: string,
    serverExecuted: boolean,
  ): LanguageModelV3StreamPart[] {
    const parts: LanguageModelV3StreamPart[] = [];
    // A server may send a call whole, without deltas: preview it once so the panel shows its arguments.
    if (!this.previewed.has(toolCallId))
      parts.push(
        { type: 'tool-input-start', id: toolCallId, toolName },
        { type: 'tool-input-delta', id: toolCallId, delta: text },
      );
    parts.push({ type: 'tool-input-end', id: toolCallId });
    if (!serverExecuted) this.calls.set(toolCallId, { toolCallId, toolName, input: text });
    return parts;
  }

  private finish(reason: string | undefined): LanguageModelV3StreamPart[] {
    this.finished = true;
    const calls = [...this.calls.values()];
    this.calls.clear();
    const unified = (
      reason && UNIFIED_REASONS.has(reason) ? reason : calls.length > 0 ? 'tool-calls' : 'stop'
    ) as LanguageModelV3FinishReason['unified'];
    return [
      ...calls.map((call): LanguageModelV3StreamPart => ({ type: 'tool-call', ...call })),
      { type: 'finish', finishReason: { unified, raw: reason ?? unified }, usage: EMPTY_USAGE },
    ];
  }
}
