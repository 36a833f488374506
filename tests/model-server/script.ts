import { z } from 'zod';

const delayMsSchema = z.number().int().nonnegative().optional();

export const textStepSchema = z.strictObject({
  text: z.string(),
  reasoning: z.string().optional(),
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
  delayMs: delayMsSchema,
});

export const errorStepSchema = z.strictObject({
  error: z.strictObject({
    status: z.number().int().min(400).max(599),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  delayMs: delayMsSchema,
});

export const truncateStepSchema = z.strictObject({
  truncate: z.strictObject({ text: z.string() }),
  delayMs: delayMsSchema,
});

const stepKinds = [
  ['toolCalls', toolCallsStepSchema],
  ['error', errorStepSchema],
  ['truncate', truncateStepSchema],
  ['text', textStepSchema],
] as const;

export const stepSchema = z.union([textStepSchema, toolCallsStepSchema, errorStepSchema, truncateStepSchema], {
  error: (issue) => describeStepProblem(issue.input),
});

// A plain union only reports "Invalid input"; naming the step kind and its own problem helps script authors.
function describeStepProblem(input: unknown): string {
  const expected = 'A step needs one of the keys text, toolCalls, error, truncate.';
  if (typeof input !== 'object' || input === null) return expected;
  const kind = stepKinds.find(([key]) => key in input);
  if (kind === undefined) return expected;
  const [key, schema] = kind;
  const result = schema.safeParse(input);
  if (result.success) return `Invalid ${key} step.`;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
    return `${issue.message}${path}`;
  });
  return `Invalid ${key} step: ${problems.join('; ')}`;
}

export const turnSchema = z.strictObject({
  steps: z.array(stepSchema),
});

export const scriptSchema = z.strictObject({
  name: z.string().optional(),
  turns: z.array(turnSchema).min(1),
});

export type TextStep = z.infer<typeof textStepSchema>;
export type ScriptedToolCall = z.infer<typeof scriptedToolCallSchema>;
export type ToolCallsStep = z.infer<typeof toolCallsStepSchema>;
export type ErrorStep = z.infer<typeof errorStepSchema>;
export type TruncateStep = z.infer<typeof truncateStepSchema>;
export type Step = z.infer<typeof stepSchema>;
export type StreamableStep = Exclude<Step, ErrorStep>;
export type Turn = z.infer<typeof turnSchema>;
export type Script = z.infer<typeof scriptSchema>;

export const nothingMoreToSayText = '(The scripted model has nothing more to say.)';

export interface ScriptMessage {
  readonly role: string;
}

export interface PickedStep {
  readonly step: Step;
  readonly turnIndex: number;
  readonly stepIndex: number;
  /** True when the turn had no step left and the fallback text step was used. */
  readonly isFallback: boolean;
}

export function pickStep(script: Script, messages: readonly ScriptMessage[]): PickedStep {
  const userMessageCount = messages.filter((message) => message.role === 'user').length;
  // A request without any user message (system prompt only) is treated as the first turn.
  const turnIndex = Math.max(0, userMessageCount - 1) % script.turns.length;

  let lastUserPosition = -1;
  messages.forEach((message, position) => {
    if (message.role === 'user') lastUserPosition = position;
  });
  const stepIndex = messages
    .slice(lastUserPosition + 1)
    .filter((message) => message.role === 'assistant').length;

  const turn = script.turns[turnIndex];
  const step = turn?.steps[stepIndex];
  if (step === undefined) {
    return { step: { text: nothingMoreToSayText }, turnIndex, stepIndex, isFallback: true };
  }
  return { step, turnIndex, stepIndex, isFallback: false };
}

export function isErrorStep(step: Step): step is ErrorStep {
  return 'error' in step;
}

export function isTruncateStep(step: Step): step is TruncateStep {
  return 'truncate' in step;
}

export function isToolCallsStep(step: Step): step is ToolCallsStep {
  return 'toolCalls' in step;
}
