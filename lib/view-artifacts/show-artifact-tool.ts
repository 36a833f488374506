import { z } from 'zod';
import { VIEW_ARTIFACT_KINDS, VIEW_ARTIFACT_LIMITS } from '../protocol/view-artifact-data';
import { defineTool } from '../tool-family/tool-family';
import type { ViewArtifactControl } from './view-artifact-control';

/** showArtifact: the runtime's view artifacts check the data and give the artifact its version. */
export const showArtifactTool = defineTool({
  name: 'showArtifact',
  description: `Show the user a table, chart, diff, plan or code as a card in the conversation, rendered by the panel (no HTML). Returns its artifactId and version; update it with artifactId and baseVersion. Data is checked per kind (at most ${VIEW_ARTIFACT_LIMITS.maxDataBytes / 1024} KiB of JSON); a rejection lists every problem with its JSON Pointer.`,
  inputSchema: z.object({
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
  sideEffect: 'side-effecting',
  runsOn: 'view-artifacts',
  execute: (_input, artifacts: Pick<ViewArtifactControl, 'show' | 'recoverShow'>, { request }) =>
    artifacts.show(request),
  recover: (_input, artifacts, { request }) => artifacts.recoverShow(request),
});
