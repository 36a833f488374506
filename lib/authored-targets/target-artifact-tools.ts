import { z } from 'zod';
import { defineTool, type ExecutedTool } from '../tool-family/tool-family';
import type { TargetArtifactControl } from './target-artifact-control';
import { parts, updateTargetInputSchema } from './target-artifact-inputs';

/** What createTarget and updateTarget run on: the runtime's authored targets. */
export type AuthoredTargetServices = Pick<TargetArtifactControl, 'unavailable' | 'create' | 'update'>;

export type AuthoredTargetTool = ExecutedTool<'authored-targets', AuthoredTargetServices>;

export const createTargetTool = defineTool({
  name: 'createTarget',
  description:
    'Make a new target (a small web app) that you then drive like any other with getParameters and setParameters. It runs sandboxed: no network, no storage. ' +
    'Every problem is returned at once with its JSON Pointer path; fix them all in the next call.',
  inputSchema: z.object(parts),
  sideEffect: 'side-effecting',
  runsOn: 'authored-targets',
  execute: async (_input, targets: AuthoredTargetServices, { request }) =>
    targets.unavailable() ?? targets.create(request),
});

export const updateTargetTool = defineTool({
  name: 'updateTarget',
  description:
    'Make a new version of a target you made: give whole new parts or exact find/replace edits. baseVersion must be its current version, else VERSION_CONFLICT with the current one.',
  inputSchema: updateTargetInputSchema,
  sideEffect: 'side-effecting',
  runsOn: 'authored-targets',
  execute: async (_input, targets: AuthoredTargetServices, { request }) =>
    targets.unavailable() ?? targets.update(request),
});

/** The tools that make targets, in the order the model is told of them. */
export const authoredTargetToolFamily: readonly AuthoredTargetTool[] = [createTargetTool, updateTargetTool];
