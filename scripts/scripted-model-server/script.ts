import { z } from 'zod';
import { issuesText } from '../../lib/protocol/issue-text';

const delayMsSchema = z.number().int().nonnegative().optional();
const onceSchema = z.boolean().optional();
const tokenCountSchema = z.number().int().nonnegative();

/** What the reply reports it used, in each wire format's own shape; without it the server estimates input and output. */
export const scriptedUsageSchema = z.strictObject({
  inputTokens: tokenCountSchema,
  outputTokens: tokenCountSchema,
  /** Part of outputTokens. */
  reasoningTokens: tokenCountSchema.optional(),
  /** Part of inputTokens. */
  cachedInputTokens: tokenCountSchema.optional(),
});

export const textStepSchema = z.strictObject({
  text: z.string(),
  reasoning: z.string().optional(),
  usage: scriptedUsageSchema.optional(),
  delayMs: delayMsSchema,
});

export const scriptedToolCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
  id: z.string().min(1).optional(),
});

export const toolCallsStepSchema = z.strictObject({
  toolCalls: z.array(scriptedToolCallSchema).min(1),
  text: z.string().optional(),
  reasoning: z.string().optional(),
  usage: scriptedUsageSchema.optional(),
  delayMs: delayMsSchema,
});

export const errorStepSchema = z.strictObject({
  error: z.strictObject({
    status: z.number().int().min(400).max(599),
    /** Sent verbatim in every wire format (a string as text/plain, anything else as JSON); replaces the format's own error body. */
    body: z.unknown().optional(),
    /** Sent verbatim in every wire format. */
    headers: z.record(z.string(), z.string()).optional(),
    /** The message inside the format's own error body; defaults to `Scripted error (HTTP <status>).` */
    message: z.string().optional(),
    /** A 429 that retrying will not fix: OpenAI `insufficient_quota`, Gemini RESOURCE_EXHAUSTED with a QuotaFailure and no RetryInfo. */
    quotaExhausted: z.boolean().optional(),
    /** Each format's native retry hint: Gemini's body RetryInfo (`retryDelay: "2s"`), a `retry-after` header elsewhere. */
    retryDelaySeconds: z.number().nonnegative().optional(),
  }),
  once: onceSchema,
  delayMs: delayMsSchema,
});

export const truncateStepSchema = z.strictObject({
  truncate: z.strictObject({ text: z.string() }),
  once: onceSchema,
  delayMs: delayMsSchema,
});

export const breakAfterStepSchema = z.strictObject({
  breakAfter: z.strictObject({
    text: z.string(),
    error: z.enum(['network', 'malformed', 'server']),
  }),
  once: onceSchema,
  delayMs: delayMsSchema,
});

/** The whole text reply is encoded, then only its first `byte` bytes are sent; then the connection is closed or held open silently. */
export const cutAtStepSchema = z.strictObject({
  cutAt: z.strictObject({
    text: z.string(),
    byte: z.number().int().nonnegative(),
    then: z.enum(['close', 'stall']),
  }),
  once: onceSchema,
  delayMs: delayMsSchema,
});

const stepKinds = [
  ['toolCalls', toolCallsStepSchema],
  ['error', errorStepSchema],
  ['truncate', truncateStepSchema],
  ['breakAfter', breakAfterStepSchema],
  ['cutAt', cutAtStepSchema],
  ['text', textStepSchema],
] as const;

export const stepSchema = z.union(
  [textStepSchema, toolCallsStepSchema, errorStepSchema, truncateStepSchema, breakAfterStepSchema, cutAtStepSchema],
  {
    error: (issue) => describeStepProblem(issue.input),
  },
);

// A plain union only reports "Invalid input"; naming the step kind and its own problem helps script authors.
function describeStepProblem(input: unknown): string {
  const expected = 'A step needs one of the keys text, toolCalls, error, truncate, breakAfter, cutAt.';
  if (typeof input !== 'object' || input === null) return expected;
  const kind = stepKinds.find(([key]) => key in input);
  if (kind === undefined) return expected;
  const [key, schema] = kind;
  const result = schema.safeParse(input);
  if (result.success) return `Invalid ${key} step.`;
  return `Invalid ${key} step: ${issuesText(result.error.issues, { root: key })}`;
}

export const turnSchema = z.strictObject({
  steps: z.array(stepSchema),
});

export const scriptSchema = z.strictObject({
  name: z.string().optional(),
  turns: z.array(turnSchema).min(1),
});

export type ScriptedUsage = z.infer<typeof scriptedUsageSchema>;
export type TextStep = z.infer<typeof textStepSchema>;
export type ScriptedToolCall = z.infer<typeof scriptedToolCallSchema>;
export type ToolCallsStep = z.infer<typeof toolCallsStepSchema>;
export type ErrorStep = z.infer<typeof errorStepSchema>;
export type TruncateStep = z.infer<typeof truncateStepSchema>;
export type BreakAfterStep = z.infer<typeof breakAfterStepSchema>;
export type CutAtStep = z.infer<typeof cutAtStepSchema>;
export type Step = z.infer<typeof stepSchema>;
export type StreamableStep = Exclude<Step, ErrorStep>;
export type Turn = z.infer<typeof turnSchema>;
export type Script = z.infer<typeof scriptSchema>;

export const nothingMoreToSayText = '(The scripted model has nothing more to say.)';

/** One message of a request, reduced to what picking a step needs. Every wire format has an adapter producing these. */
export interface ScriptMessage {
  readonly role: string;
  /**
   * Only for `user`: an invisible "Continue." message that asks the model to go on
   * with the same turn, so it neither starts a turn nor resets the step count.
   */
  readonly continuation?: boolean;
}

export interface StepLocation {
  readonly turnIndex: number;
  readonly stepIndex: number;
}

export interface PickedStep {
  readonly step: Step;
  readonly turnIndex: number;
  readonly stepIndex: number;
  /** True when the turn had no step left and the fallback text step was used. */
  readonly isFallback: boolean;
}

/**
 * turn = number of user messages − 1 (wrapping around the script's turns);
 * step = number of assistant messages after the last user message.
 * Continuation user messages count for neither.
 */
export function locateStep(script: Script, messages: readonly ScriptMessage[]): StepLocation {
  const startsTurn = (message: ScriptMessage): boolean => message.role === 'user' && message.continuation !== true;
  const userMessageCount = messages.filter(startsTurn).length;
  // A request without any user message (system prompt only) is treated as the first turn.
  const turnIndex = Math.max(0, userMessageCount - 1) % script.turns.length;

  let lastUserPosition = -1;
  messages.forEach((message, position) => {
    if (startsTurn(message)) lastUserPosition = position;
  });
  const stepIndex = messages.slice(lastUserPosition + 1).filter((message) => message.role === 'assistant').length;
  return { turnIndex, stepIndex };
}

/**
 * Picks the reply for a request. Steps marked `once` take no position of their
 * own: they are served, in order, to the first attempts at the position of the
 * next step without `once`, which then answers every later attempt. `attempt`
 * counts earlier requests for the same (turn, step), starting at 0.
 */
export function pickStep(script: Script, messages: readonly ScriptMessage[], attempt = 0): PickedStep {
  const { turnIndex, stepIndex } = locateStep(script, messages);
  const position = groupStepsByPosition(script.turns[turnIndex]?.steps ?? [])[stepIndex];
  const onceSteps = position?.onceSteps ?? [];
  const onceStep = onceSteps[attempt];
  if (onceStep !== undefined) return { step: onceStep, turnIndex, stepIndex, isFallback: false };
  if (position?.step === undefined) {
    return { step: { text: nothingMoreToSayText }, turnIndex, stepIndex, isFallback: true };
  }
  return { step: position.step, turnIndex, stepIndex, isFallback: false };
}

interface StepPosition {
  readonly onceSteps: Step[];
  /** Undefined for `once` steps at the end of a turn: after them comes the fallback. */
  readonly step: Step | undefined;
}

function groupStepsByPosition(steps: readonly Step[]): StepPosition[] {
  const positions: StepPosition[] = [];
  let onceSteps: Step[] = [];
  for (const step of steps) {
    if (isOnceStep(step)) {
      onceSteps.push(step);
      continue;
    }
    positions.push({ onceSteps, step });
    onceSteps = [];
  }
  if (onceSteps.length > 0) positions.push({ onceSteps, step: undefined });
  return positions;
}

export function isOnceStep(step: Step): boolean {
  return 'once' in step && step.once === true;
}

export function isErrorStep(step: Step): step is ErrorStep {
  return 'error' in step;
}

export function isTruncateStep(step: Step): step is TruncateStep {
  return 'truncate' in step;
}

export function isBreakAfterStep(step: Step): step is BreakAfterStep {
  return 'breakAfter' in step;
}

export function isCutAtStep(step: Step): step is CutAtStep {
  return 'cutAt' in step;
}

export function isToolCallsStep(step: Step): step is ToolCallsStep {
  return 'toolCalls' in step;
}
