import type { ModelMessage, ToolResultPart, ToolSet } from 'ai';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { AgentLoopOptions } from './agent-loop-options';
import { callKey, repeatsPreviousStep } from './repeated-call-guard';
import { ContextKeeper } from './context-keeper';
import { COMPACT_TOOLS_BELOW_TOKENS, declaredTools } from './declared-tools';
import { runStepAttempts } from './step-attempts';
import { SYSTEM_PROMPT } from './system-prompt';
import { toolsText } from '../context/estimate-prompt-tokens';
import type { CompleteToolCall } from './step-stream-mapper';
import type { TurnOutcome } from './turn-outcome';
import { errorText } from '../protocol/error-text';

/**
 * The hard cap on a turn's model calls. A page task takes a step per action (60 steps are a short form or a list
 * gone through), and browser-use and nanobrowser stop at 100 too; the repeated-call guard and the budgets stop a
 * loop sooner.
 */
export const MAX_STEPS_PER_TURN = 100;

function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

export async function runAgentTurn(options: AgentLoopOptions): Promise<TurnOutcome> {
  const { sessionId, turnId } = options;
  const maxSteps = options.maxSteps ?? MAX_STEPS_PER_TURN;
  let messages = [...options.messages];
  // MCP glue: a dynamic family never shadows a declared tool.
  const compact = options.context !== undefined && options.context.limitTokens < COMPACT_TOOLS_BELOW_TOKENS;
  const tools: ToolSet = { ...(await options.extraTools?.()), ...declaredTools({ compact }) };
  const keeper = options.context
    ? new ContextKeeper(options.context, options, { system: SYSTEM_PROMPT, toolsText: toolsText(tools) })
    : undefined;
  let previousKeys: string[] = [];
  const crowded = keeper?.crowded();
  if (crowded) options.emit([crowdedNotice(options, crowded)]);
  // The runtime refuses a turn at a budget when it records turn/started: no model call before that answer.
  if (options.budgetReached) await options.flush();
  for (let index = 0; index < maxSteps; index++) {
    // After a model call and its tool calls, never inside one: the calls the model asked for have all run.
    if (index > 0 && (await pauseTaken(options))) return 'paused';
    if (index > 0 && (await budgetReached(options))) return finish(options, 'budget');
    if (keeper?.needsCompaction(messages)) {
      const compacted = await compactBeforeStep(options, keeper, messages);
      if (compacted === 'aborted') return abort(options, []);
      messages = compacted;
    }
    const promptEstimate = keeper?.estimate(messages);
    const stepId = options.newId();
    const outcome = await runStepAttempts(options, { stepId, index, messages, tools });
    const firstOutputMs = outcome.kind === 'completed' ? firstOutputMsOf(outcome) : undefined;
    if (outcome.kind === 'aborted')
      return abort(options, outcome.mapper?.finalItems({ interrupted: true, reason: 'Stopped by the user.' }) ?? []);
    if (outcome.kind === 'failed') {
      const { message, code, retryable } = outcome.failure;
      options.emit([
        ...outcome.mapper.finalItems({ interrupted: true, reason: message }),
        {
          type: 'stream/error',
          sessionId,
          turnId,
          attemptId: outcome.attemptId,
          time: options.now(),
          data: { message, code, retryable },
        },
        { type: 'turn/interrupted', sessionId, turnId, time: options.now(), data: { reason: message } },
      ]);
      await options.flush();
      return 'interrupted';
    }
    const { mapper } = outcome;
    if (keeper && promptEstimate !== undefined) keeper.observe(promptEstimate, mapper.usage?.inputTokens);
    options.emit([
      ...mapper.finalItems({ interrupted: false }),
      {
        type: 'step/completed',
        ...mapper.ids(),
        time: options.now(),
        data: {
          finishReason: mapper.finishReason ?? 'other',
          ...(mapper.usage ? { usage: mapper.usage } : {}),
          ...(options.modelId ? { model: options.modelId } : {}),
          ...(promptEstimate !== undefined ? { promptEstimate } : {}),
          ...(firstOutputMs !== undefined ? { firstOutputMs } : {}),
        },
      },
    ]);
    await options.flush();
    if (mapper.toolCalls.length === 0) {
      const steers = await takeSteers(options);
      if (steers.length === 0) return finish(options, 'stop');
      if (mapper.assistantText()) messages.push(assistantMessage(mapper.assistantText(), []));
      messages.push(...steers);
      previousKeys = [];
      continue;
    }
    const keys = mapper.toolCalls.map((call) => callKey(call.toolName, call.input));
    messages.push(assistantMessage(mapper.assistantText(), mapper.toolCalls));
    if (repeatsPreviousStep(previousKeys, keys)) {
      options.emit([
        {
          type: 'notification',
          sessionId,
          notificationId: options.newId(),
          time: options.now(),
          data: {
            level: 'warning',
            message: 'The model repeated the same tool call; it was stopped instead of looping.',
          },
        },
      ]);
      return finish(options, 'repeated-call');
    }
    previousKeys = keys;
    messages.push(...(await runToolCalls(options, stepId, mapper.toolCalls)));
    if (options.signal.aborted) return abort(options, []);
    keeper?.markStep(messages.length, stepId);
    messages.push(...(await takeSteers(options)));
  }
  options.emit([
    {
      type: 'notification',
      sessionId,
      notificationId: options.newId(),
      time: options.now(),
      data: { level: 'warning', message: `Stopped after ${maxSteps} steps.` },
    },
  ]);
  return finish(options, 'step-cap');
}

function firstOutputMsOf(outcome: {
  mapper: { firstOutputAt: number | undefined };
  startedAt: number;
}): number | undefined {
  const { firstOutputAt } = outcome.mapper;
  return firstOutputAt === undefined ? undefined : Math.max(0, firstOutputAt - outcome.startedAt);
}

function crowdedNotice(
  options: AgentLoopOptions,
  crowded: { preambleTokens: number; limitTokens: number },
): AgentEventDraft {
  const figure = (tokens: number) => tokens.toLocaleString('en-US');
  return {
    type: 'notification',
    sessionId: options.sessionId,
    notificationId: options.newId(),
    time: options.now(),
    data: {
      level: 'warning',
      message: `The instructions and tool definitions take about ${figure(crowded.preambleTokens)} of the ${figure(crowded.limitTokens)} tokens a prompt may hold on this profile, so earlier turns cannot be summarised to make room and a long request may be refused. Pick a model with a larger window, or set this one's real window in Settings.`,
    },
  };
}

/** The summary is in the log before the request that relies on it is sent, so a replay builds the same request. */
async function compactBeforeStep(
  options: AgentLoopOptions,
  keeper: ContextKeeper,
  messages: ModelMessage[],
): Promise<ModelMessage[] | 'aborted'> {
  try {
    const compacted = await keeper.compact(messages, 'threshold', options.signal);
    if (!compacted) return messages;
    options.emit([compacted.event]);
    await options.flush();
    return compacted.messages;
  } catch (error) {
    if (options.signal.aborted) return 'aborted';
    throw error;
  }
}

async function abort(options: AgentLoopOptions, finals: AgentEventDraft[]): Promise<TurnOutcome> {
  const commandId = options.cancelCommandId?.();
  options.emit([
    ...finals,
    {
      type: 'turn/aborted',
      sessionId: options.sessionId,
      turnId: options.turnId,
      ...(commandId ? { commandId } : {}),
      time: options.now(),
      data: { reason: 'Stopped by the user.' },
    },
  ]);
  await options.flush();
  return 'aborted';
}

/** Steers become user messages; one the runtime cannot hand over now stays queued for the next safe point or goes stale. */
async function takeSteers(options: AgentLoopOptions): Promise<ModelMessage[]> {
  if (!options.takeSteers || options.signal.aborted) return [];
  await options.flush();
  const steers = await options.takeSteers().catch(() => []);
  return steers.map((steer) => ({ role: 'user' as const, content: steer.text }));
}

/** A pause that cannot be taken now (the worker restarting) stays queued for the next safe point. */
async function pauseTaken(options: AgentLoopOptions): Promise<boolean> {
  if (!options.takePause || options.signal.aborted) return false;
  await options.flush();
  return options.takePause().catch(() => false);
}

/** A budget check that cannot be answered (the worker restarting) does not stop the turn; the next safe point asks again. */
async function budgetReached(options: AgentLoopOptions): Promise<boolean> {
  if (!options.budgetReached || options.signal.aborted) return false;
  await options.flush();
  return options.budgetReached().catch(() => false);
}

async function finish(
  options: AgentLoopOptions,
  reason: 'stop' | 'step-cap' | 'repeated-call' | 'budget',
): Promise<TurnOutcome> {
  options.emit([
    {
      type: 'turn/completed',
      sessionId: options.sessionId,
      turnId: options.turnId,
      time: options.now(),
      data: { reason },
    },
  ]);
  await options.flush();
  return reason;
}

function assistantMessage(text: string, calls: CompleteToolCall[]): ModelMessage {
  return {
    role: 'assistant',
    content: [
      ...(text ? [{ type: 'text' as const, text }] : []),
      ...calls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
      })),
    ],
  };
}

async function runToolCalls(
  options: AgentLoopOptions,
  stepId: string,
  calls: CompleteToolCall[],
): Promise<ModelMessage[]> {
  const results: { part: ToolResultPart; followUp?: ModelMessage }[] = [];
  for (const call of calls) {
    if (options.signal.aborted) break;
    let output: JsonValue;
    try {
      output = await options.executeTool({
        stepId,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: toJson(call.input),
      });
    } catch (error) {
      output = { ok: false, error: `The tool call could not be delivered: ${errorText(error, { json: true })}` };
    }
    results.push(await toolResultOf(options, call, output));
  }
  const followUps = results.flatMap((result) => (result.followUp ? [result.followUp] : []));
  return [{ role: 'tool', content: results.map((result) => result.part) }, ...followUps];
}

async function toolResultOf(
  options: AgentLoopOptions,
  call: CompleteToolCall,
  output: JsonValue,
): Promise<{ part: ToolResultPart; followUp?: ModelMessage }> {
  const plain = {
    part: {
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'json' as const, value: output },
    },
  };
  if (!options.toolResult) return plain;
  return options.toolResult(call, output).catch(() => plain);
}
