import { z } from 'zod';
import { JOB_LIMITS } from '../jobs/job-limits';
import { formDefinitionSchema } from '../forms/form-definition';
import { VIEW_ARTIFACT_KINDS, VIEW_ARTIFACT_LIMITS } from '../protocol/view-artifact-data';
import { authoredTargetInputSchemas, AUTHORED_TARGET_DESCRIPTIONS } from '../authored-targets/target-artifact-tools';
import { pageToolDescriptions, pageToolInputSchemas, pageToolTraits } from '../page-tools/page-tool-definitions';

const parameterValue = z
  .union([z.number(), z.boolean(), z.string(), z.array(z.number())])
  .describe(
    'The new value, in the unit and range that getParameters reports. Arrays are fixed-length, e.g. [x, y, z].',
  );

export const toolInputSchemas = {
  listTargets: z.object({}),
  openTarget: z.object({ targetId: z.string().describe('Id of the target, as listed by listTargets.') }),
  getParameters: z.object({}),
  setParameter: z.object({
    param: z.string().describe('Exact parameter name from getParameters, e.g. "speed".'),
    value: parameterValue,
  }),
  setParameters: z.object({
    changes: z
      .array(
        z.object({ param: z.string().describe('Exact parameter name from getParameters.'), value: parameterValue }),
      )
      .min(1)
      .describe('Several parameters to change at once; either all are applied or none.'),
  }),
  resetTarget: z.object({}),
  askUser: z.object({
    question: z.string().min(1).max(2000).describe("The question, in the user's language."),
    answerType: z
      .enum(['choice', 'text', 'number', 'form'])
      .describe(
        '"choice" to pick one of `choices`, "text" for free text, "number" for a number, "form" for several typed values at once (`form`).',
      ),
    choices: z
      .array(z.string().min(1).max(200))
      .min(2)
      .max(10)
      .optional()
      .describe('The options to pick from, when answerType is "choice".'),
    form: formDefinitionSchema
      .optional()
      .describe(
        'When answerType is "form": `fields` (each with `id`, `label`, `type`: text | number (unit, min, max, integer) | choice (options) | toggle | color (#rrggbb) | slider (min, max, step, unit); optional `default`, `help`) and optional `actions` (buttons: `id`, `label`; default one "submit"). The answer is `{ actionId, values }` with one value per field id.',
      ),
  }),
  showArtifact: z.object({
    kind: z.enum(VIEW_ARTIFACT_KINDS),
    title: z.string().min(1).max(VIEW_ARTIFACT_LIMITS.title),
    data: z
      .record(z.string(), z.unknown())
      .describe(
        'By kind. table: { columns: [{ label, type?: "text"|"number", unit? }], rows: [[cell, ...], ...] } (one cell per column). chart: { type: "line"|"bar", x: { label?, values: [...] }, y?: { label?, unit? }, series: [{ name, values: [number|null, ...] }] } (one value per x). diff: { before, after, filename? } or { patch } (a unified diff). plan: { steps: [{ title, state: "pending"|"in-progress"|"done"|"failed"|"skipped", detail? }] }. code: { language, text, filename? }.',
      ),
    artifactId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('To update an artifact you showed: its artifactId, with baseVersion.'),
    baseVersion: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('The version your update is based on; if it is no longer the current one you get VERSION_CONFLICT.'),
  }),
  runScript: z.object({
    code: z
      .string()
      .min(1)
      .max(100_000)
      .describe(
        'JavaScript to run, as the body of an async function (top-level await works). `input` holds the input; console.log prints. The result is what the code `return`s; without a `return`, the value of its last statement if that is an expression, as a console shows it (`let p = 2; p * 3` gives 6; code that is one object literal gives it); else null. Code that does not parse is not run.',
      ),
    input: z.unknown().optional().describe('Any JSON value, passed to the code as `input`.'),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(JOB_LIMITS.maxTimeoutSeconds)
      .optional()
      .describe(`Time limit in seconds (default ${JOB_LIMITS.defaultTimeoutSeconds}).`),
    background: z
      .boolean()
      .optional()
      .describe('true: return the jobId at once and let the job run; read it later with jobStatus.'),
  }),
  jobStatus: z.object({ jobId: z.string().min(1).max(200).describe('The jobId that runScript returned.') }),
  cancelJob: z.object({ jobId: z.string().min(1).max(200).describe('The jobId of the job to stop.') }),
  ...authoredTargetInputSchemas,
  ...pageToolInputSchemas,
} as const;

export type ToolName = keyof typeof toolInputSchemas;
export type ToolInput<TName extends ToolName> = z.infer<(typeof toolInputSchemas)[TName]>;

export const toolDescriptions: Record<ToolName, string> = {
  listTargets: "List the targets (live web apps in the user's browser) that can be driven, and which one is active.",
  openTarget: 'Open a target in the stage tab and make it the active target.',
  getParameters:
    "Read the active target's exact parameter schema (names, types, units, ranges, options) and current values. Call this before setting anything.",
  setParameter: 'Set one parameter of the active target. The result reports the value actually applied.',
  setParameters: 'Set several parameters of the active target at once. The result reports the values actually applied.',
  resetTarget: 'Reset every parameter of the active target to its default.',
  askUser:
    'Ask the user a question when you lack information only they have, and wait for the answer. Never guess an answer yourself; if the question expires unanswered, say what you need and stop.',
  showArtifact: `Show the user a table, chart, diff, plan or code as a card in the conversation, rendered by the panel (no HTML). Returns its artifactId and version; update it with artifactId and baseVersion. Data is checked per kind (at most ${VIEW_ARTIFACT_LIMITS.maxDataBytes / 1024} KiB of JSON); a rejection lists every problem with its JSON Pointer.`,
  runScript: `Run JavaScript in a sandbox in the user's browser (no network, no page, no storage, no extension API) and get its result and output (the first ${JOB_LIMITS.headBytes} and last ${JOB_LIMITS.tailBytes} bytes, with what was cut said in bytes). At most ${JOB_LIMITS.maxRunningPerSession} jobs run at once.`,
  jobStatus: "Read a job's state (created, running, stopping, completed, failed, killed, orphaned), result and output.",
  cancelJob: 'Stop a running job. Cancelling a job that has already ended only reports its state.',
  ...AUTHORED_TARGET_DESCRIPTIONS,
  ...pageToolDescriptions,
};

/**
 * A read-only tool changes nothing outside the log, so a call of it cut off by a restart is simply run again; a
 * side-effecting one runs at most once, and a call of it whose outcome was lost is reported unknown.
 */
export type ToolSideEffect = 'read-only' | 'side-effecting';

export const toolTraits: Record<ToolName, { sideEffect: ToolSideEffect }> = {
  listTargets: { sideEffect: 'read-only' },
  openTarget: { sideEffect: 'side-effecting' },
  getParameters: { sideEffect: 'read-only' },
  setParameter: { sideEffect: 'side-effecting' },
  setParameters: { sideEffect: 'side-effecting' },
  resetTarget: { sideEffect: 'side-effecting' },
  askUser: { sideEffect: 'side-effecting' },
  showArtifact: { sideEffect: 'side-effecting' },
  runScript: { sideEffect: 'side-effecting' },
  jobStatus: { sideEffect: 'read-only' },
  cancelJob: { sideEffect: 'side-effecting' },
  createTarget: { sideEffect: 'side-effecting' },
  updateTarget: { sideEffect: 'side-effecting' },
  ...pageToolTraits,
};

/** A name this build does not know counts as side-effecting: at most once is the safe side. */
export function sideEffectOf(name: string): ToolSideEffect {
  return isToolName(name) ? toolTraits[name].sideEffect : 'side-effecting';
}

export const toolNames = Object.keys(toolInputSchemas) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(toolInputSchemas, name);
}
