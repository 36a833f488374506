import { z } from 'zod';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import { flattenParameters, type TargetManifest } from '../protocol/target-manifest';
import type { ParameterChange } from '../manifest/parameter-validation';
import { errorText } from '../protocol/error-text';
import { issuesText } from '../protocol/issue-text';
import { defineTool, type ExecutedTool, type ToolApproval, type ToolSideEffect } from '../tool-family/tool-family';
import type { StageDriver } from './stage-driver';
import { recoverToolCall, type StageRecord } from './tool-recovery';
import {
  failure,
  getParameters,
  listTargets,
  openTarget,
  resetTarget,
  setParameters,
  unwrapValues,
  withTargetErrors,
  type TargetToolContext,
} from './target-tool-actions';

/** What the target tools run on: one stage per call, over the catalog of the call's conversations. */
export interface StageToolServices {
  /** The stage driver of one call: the stage records what it does for it under `callKey`. */
  stageFor(callKey: string): StageDriver;
  /** The catalog of these conversations (every loaded one by default) and the saved values, over `on`. */
  context(on: StageDriver, sessionIds?: string[]): Promise<TargetToolContext>;
  /** What the stage tab said about its work when it last (re)connected. */
  record(): Promise<StageRecord>;
}

export type TargetTool = ExecutedTool<'stage', StageToolServices>;

/** A target tool that can also be run over a context given whole (a manual call from the stage, a test). */
export type RunnableTargetTool = TargetTool & { run(input: never, context: TargetToolContext): Promise<ToolOutput> };

interface TargetToolSpec<Schema extends z.ZodType> {
  name: string;
  description: string;
  inputSchema: Schema;
  sideEffect: ToolSideEffect;
  approval?: ToolApproval;
  run(input: z.infer<Schema>, context: TargetToolContext): Promise<ToolOutput>;
}

/** Checks the input (values may come wrapped), runs the tool, and adds what its target reported meanwhile. */
export async function runTargetTool(
  spec: Pick<TargetTool, 'name' | 'inputSchema'> & {
    run(input: never, context: TargetToolContext): Promise<ToolOutput>;
  },
  input: unknown,
  context: TargetToolContext,
): Promise<ToolOutput> {
  const parsed = spec.inputSchema.safeParse(unwrapValues(input ?? {}));
  if (!parsed.success)
    return failure(`Invalid input for ${spec.name}: ${issuesText(parsed.error.issues, { root: 'input' })}.`);
  try {
    return withTargetErrors(await spec.run(parsed.data as never, context), context);
  } catch (error) {
    return failure(errorText(error));
  }
}

/** A target tool: runs on the call's stage; cut off by a restart, its output is rebuilt from what the stage recorded. */
function targetTool<Schema extends z.ZodType>(spec: TargetToolSpec<Schema>): RunnableTargetTool {
  const { run, ...basics } = spec;
  return {
    ...defineTool({
      ...basics,
      runsOn: 'stage',
      execute: async (input, services, { request, callKey }) =>
        runTargetTool(spec, input, await services.context(services.stageFor(callKey), [request.sessionId])),
      recover: (input, services, { callKey, startedAt }) =>
        recoverToolCall(
          { toolName: spec.name, input, callKey, startedAt },
          {
            stageRecord: () => services.record(),
            runTool: async (_toolName, recorded, stage) => runTargetTool(spec, recorded, await services.context(stage)),
          },
        ),
    }),
    run: run as RunnableTargetTool['run'],
  };
}

const parameterValue = z
  .union([z.number(), z.boolean(), z.string(), z.array(z.number())])
  .describe(
    'The new value, in the unit and range that getParameters reports. Arrays are fixed-length, e.g. [x, y, z].',
  );

function describeValue(value: JsonValue | undefined): string {
  return JSON.stringify(value ?? null).slice(0, 120);
}

function onTarget(target?: TargetManifest): string {
  return target ? ` on "${target.title}"` : '';
}

/** Whether one of the parameters a call changes is one its manifest marks `confirm`. */
function confirmsAny(names: string[], target: TargetManifest): boolean {
  const parameters = flattenParameters(target);
  return names.some((name) => parameters.get(name)?.spec.confirm === true);
}

function changedParameters(input: JsonObject): string[] {
  if (!Array.isArray(input.changes)) return [];
  return input.changes.flatMap((change) =>
    change && typeof change === 'object' && !Array.isArray(change) && typeof change.param === 'string'
      ? [change.param]
      : [],
  );
}

const changedParameter = (input: JsonObject): string[] => (typeof input.param === 'string' ? [input.param] : []);

export const listTargetsTool = targetTool({
  name: 'listTargets',
  description: "List the targets (live web apps in the user's browser) that can be driven, and which one is active.",
  inputSchema: z.object({}),
  sideEffect: 'read-only',
  approval: { offered: false, recordsTarget: false },
  run: (_input, context) => listTargets(context),
});

export const openTargetTool = targetTool({
  name: 'openTarget',
  description: 'Open a target in the stage tab and make it the active target.',
  inputSchema: z.object({ targetId: z.string().describe('Id of the target, as listed by listTargets.') }),
  sideEffect: 'side-effecting',
  approval: {
    summarize: (input) => `Open the target "${String(input.targetId)}".`,
    namedTarget: (input) => (typeof input.targetId === 'string' ? input.targetId : undefined),
  },
  run: (input, context) => openTarget(input.targetId, context),
});

export const getParametersTool = targetTool({
  name: 'getParameters',
  description:
    "Read the active target's exact parameter schema (names, types, units, ranges, options) and current values. Call this before setting anything.",
  inputSchema: z.object({}),
  sideEffect: 'read-only',
  approval: { offered: false },
  run: (_input, context) => getParameters(context),
});

export const setParameterTool = targetTool({
  name: 'setParameter',
  description: 'Set one parameter of the active target. The result reports the value actually applied.',
  inputSchema: z.object({
    param: z.string().describe('Exact parameter name from getParameters, e.g. "speed".'),
    value: parameterValue,
  }),
  sideEffect: 'side-effecting',
  approval: {
    summarize: (input, target) => `Set ${String(input.param)} to ${describeValue(input.value)}${onTarget(target)}.`,
    manifestAsks: (input, target) => confirmsAny(changedParameter(input), target),
  },
  run: (input, context) => setParameters([{ param: input.param, value: input.value }], context),
});

export const setParametersTool = targetTool({
  name: 'setParameters',
  description: 'Set several parameters of the active target at once. The result reports the values actually applied.',
  inputSchema: z.object({
    changes: z
      .array(
        z.object({ param: z.string().describe('Exact parameter name from getParameters.'), value: parameterValue }),
      )
      .min(1)
      .describe('Several parameters to change at once; either all are applied or none.'),
  }),
  sideEffect: 'side-effecting',
  approval: {
    summarize: (input, target) => `Change ${changedParameters(input).join(', ')}${onTarget(target)}.`,
    manifestAsks: (input, target) => confirmsAny(changedParameters(input), target),
  },
  run: (input, context) => setParameters(input.changes as ParameterChange[], context),
});

export const resetTargetTool = targetTool({
  name: 'resetTarget',
  description: 'Reset every parameter of the active target to its default.',
  inputSchema: z.object({}),
  sideEffect: 'side-effecting',
  approval: {
    summarize: (_input, target) => `Reset every parameter${onTarget(target)} to its default.`,
    manifestAsks: (_input, target) => target.confirmReset === true,
  },
  run: (_input, context) => resetTarget(context),
});

/** The tools that drive a target, in the order the model is told of them. */
export const targetToolFamily = [
  listTargetsTool,
  openTargetTool,
  getParametersTool,
  setParameterTool,
  setParametersTool,
  resetTargetTool,
] as const;
