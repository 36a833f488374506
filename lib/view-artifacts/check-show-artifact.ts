import { z } from 'zod';
import { canonicalJson } from '../protocol/canonical-json';
import type { JsonValue } from '../protocol/json-value';
import {
  VIEW_ARTIFACT_KINDS,
  VIEW_ARTIFACT_LIMITS,
  viewArtifactDataSchemas,
  type ViewArtifactData,
} from '../protocol/view-artifact-data';
import { problemsFromIssues, type ViewProblem } from './view-problems';

/** What the model sends; `data` is checked per kind afterwards, so that its problems carry their full paths. */
export const showArtifactInputSchema = z.strictObject({
  kind: z.enum(VIEW_ARTIFACT_KINDS),
  title: z.string().min(1).max(VIEW_ARTIFACT_LIMITS.title),
  data: z.unknown(),
  artifactId: z.string().min(1).max(200).optional(),
  baseVersion: z.number().int().positive().optional(),
});

export type ShowArtifactRequest = ViewArtifactData & { title: string; artifactId?: string; baseVersion?: number };

export type CheckedShowArtifact = { ok: true; request: ShowArtifactRequest } | { ok: false; problems: ViewProblem[] };

const encoder = new TextEncoder();

/** Reads the model's showArtifact arguments: every problem found, each with its JSON Pointer, or the request. */
export function checkShowArtifact(input: unknown): CheckedShowArtifact {
  const parsed = showArtifactInputSchema.safeParse(input);
  if (!parsed.success) {
    const problems = problemsFromIssues(parsed.error.issues);
    const kind = (input as { kind?: unknown } | null)?.kind;
    // The data's own problems too, when its kind is known: the model can then fix the whole call at once.
    if (typeof kind === 'string' && kind in viewArtifactDataSchemas && input && typeof input === 'object')
      problems.push(...dataProblems(kind as keyof typeof viewArtifactDataSchemas, (input as { data?: unknown }).data));
    return { ok: false, problems };
  }
  const { kind, title, data, artifactId, baseVersion } = parsed.data;
  if (artifactId !== undefined && baseVersion === undefined)
    return {
      ok: false,
      problems: [{ path: '/baseVersion', message: 'an update names the version it was made against' }],
    };
  if (artifactId === undefined && baseVersion !== undefined)
    return {
      ok: false,
      problems: [{ path: '/artifactId', message: 'baseVersion needs the artifactId it belongs to' }],
    };
  const problems = dataProblems(kind, data);
  if (problems.length > 0) return { ok: false, problems };
  const checked = viewArtifactDataSchemas[kind].parse(data);
  return {
    ok: true,
    request: {
      kind,
      data: checked,
      title,
      ...(artifactId !== undefined ? { artifactId } : {}),
      ...(baseVersion !== undefined ? { baseVersion } : {}),
    } as ShowArtifactRequest,
  };
}

function dataProblems(kind: keyof typeof viewArtifactDataSchemas, data: unknown): ViewProblem[] {
  if (data === undefined) return [{ path: '/data', message: 'is required' }];
  const parsed = viewArtifactDataSchemas[kind].safeParse(data);
  if (!parsed.success) return problemsFromIssues(parsed.error.issues, '/data');
  const bytes = encoder.encode(canonicalJson(parsed.data as JsonValue)).length;
  if (bytes > VIEW_ARTIFACT_LIMITS.maxDataBytes)
    return [{ path: '/data', message: `is ${bytes} bytes of JSON; at most ${VIEW_ARTIFACT_LIMITS.maxDataBytes}` }];
  return [];
}
