import type { ModelMessage, ToolSet } from 'ai';
import { ageToolResults, agingPolicyFor } from '../context/age-tool-results';
import { withCacheBreakpoints } from '../context/cache-breakpoints';
import { describeStreamFailure, UNFINISHED_STREAM_MESSAGE } from '../providers/describe-stream-failure';
import { endpointAdvice } from '../providers/loopback-url';
import { retryDecision } from '../providers/retry-policy';
import type { AgentLoopOptions } from './agent-loop-options';
import { abortableWait } from './abortable-wait';
import { redactSecrets } from './redact-secrets';
import { StepStreamMapper } from './step-stream-mapper';
import { StreamStalledError, streamStep } from './stream-step';

export interface StepFailure {
  message: string;
  code: string;
  retryable: boolean;
}

export type StepOutcome =
  | { kind: 'completed'; mapper: StepStreamMapper; startedAt: number }
  | { kind: 'aborted'; mapper: StepStreamMapper | undefined }
  | { kind: 'failed'; mapper: StepStreamMapper; attemptId: string; failure: StepFailure };

export interface StepRequest {
  stepId: string;
  index: number;
  messages: ModelMessage[];
  tools: ToolSet;
}

/**
 * Runs one step, repeating it while the endpoint answers "not now" (429/503/529) before streaming anything
 * and the retry policy agrees. Each try is a new attempt with its own attemptId; the wait is announced as a
 * transient stream/retrying and ends early on Stop.
 */
export async function runStepAttempts(options: AgentLoopOptions, request: StepRequest): Promise<StepOutcome> {
  const { sessionId, turnId, signal } = options;
  const secrets = options.secrets ?? [];
  const wait = options.wait ?? abortableWait;
  for (let retriesSoFar = 0; ; retriesSoFar++) {
    const attemptId = options.newId();
    const ids = { sessionId, turnId, stepId: request.stepId, attemptId };
    const startedAt = options.now();
    options.emit([{ type: 'step/started', ...ids, time: startedAt, data: { index: request.index } }]);
    const mapper = new StepStreamMapper({ ...ids, newId: options.newId, now: options.now });
    const idleTimeout = options.streamIdleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.streamIdleTimeoutMs };
    await streamStep({
      model: options.model,
      messages: withCacheBreakpoints(ageToolResults(request.messages, agingPolicyFor(options.context?.limitTokens))),
      cacheKey: sessionId,
      tools: request.tools,
      signal,
      mapper,
      emit: options.emit,
      ...idleTimeout,
    });
    if (signal.aborted || mapper.aborted) return { kind: 'aborted', mapper };
    if (mapper.error instanceof StreamStalledError)
      return {
        kind: 'failed',
        mapper,
        attemptId,
        failure: { message: mapper.error.message, code: 'stalled', retryable: true },
      };
    if (mapper.error === undefined && mapper.finished()) return { kind: 'completed', mapper, startedAt };
    if (mapper.error === undefined)
      return {
        kind: 'failed',
        mapper,
        attemptId,
        failure: { message: UNFINISHED_STREAM_MESSAGE, code: 'truncated', retryable: true },
      };
    const failure = describeStreamFailure(mapper.error, {
      midStream: mapper.hasOutput(),
      ...(options.endpointUrl ? { endpointUrl: options.endpointUrl } : {}),
    });
    if (!failure.http)
      return {
        kind: 'failed',
        mapper,
        attemptId,
        failure: { ...failure, message: redactSecrets(failure.message, secrets) },
      };
    const decision = retryDecision(failure.http, { retriesSoFar, now: options.now(), ...options.retry });
    if (!decision.retry) {
      const message =
        decision.message + (options.endpointUrl ? endpointAdvice(failure.http.status, options.endpointUrl) : '');
      return {
        kind: 'failed',
        mapper,
        attemptId,
        failure: {
          message: redactSecrets(message, secrets),
          code: decision.code,
          retryable: decision.code !== 'quota' && failure.retryable,
        },
      };
    }
    const time = options.now();
    options.emit([
      {
        type: 'stream/retrying',
        sessionId,
        turnId,
        attemptId,
        time,
        data: {
          delayMs: decision.delayMs,
          until: time + decision.delayMs,
          reason: redactSecrets(decision.reason, secrets).slice(0, 2000),
        },
      },
    ]);
    await wait(decision.delayMs, signal);
    if (signal.aborted) return { kind: 'aborted', mapper: undefined };
  }
}
