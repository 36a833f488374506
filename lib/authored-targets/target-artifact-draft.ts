import { targetManifestSchema, type TargetManifest } from '../protocol/target-manifest';
import { networkOriginSchema, type TargetArtifactProblem, type TargetGrant } from '../protocol/target-artifact-events';
import { jsonPointer } from './json-pointer';
import { targetSourceSchema, type TargetSource } from './target-artifact-source';

export const VALIDATION_FAILED = 'VALIDATION_FAILED';

export interface TargetFiles {
  html: string;
  css?: string;
  script: string;
}

export type TargetDraftCheck =
  | { ok: true; manifest: TargetManifest; files: TargetFiles; requested: TargetGrant[] }
  | { ok: false; problems: TargetArtifactProblem[] };

function problem(path: readonly PropertyKey[], message: string): TargetArtifactProblem {
  return { code: VALIDATION_FAILED, path: jsonPointer(path), message };
}

/** The manifest an authored target gets: the one schema every target has, so one validator checks both. */
export function authoredManifest(targetId: string, source: Partial<TargetSource>): unknown {
  return {
    id: targetId,
    title: source.title,
    description: source.description,
    entry: 'index.html',
    ...(source.permissions !== undefined ? { permissions: source.permissions } : {}),
    params: source.params,
  };
}

/** Every problem of a draft at once, each with its JSON Pointer into the tool's input, so one call can fix them all. */
export function checkTargetDraft(targetId: string, input: unknown): TargetDraftCheck {
  const problems: TargetArtifactProblem[] = [];
  const shape = targetSourceSchema.safeParse(input);
  if (!shape.success) {
    for (const issue of shape.error.issues) problems.push(problem(issue.path, issue.message));
  }
  const source = (input && typeof input === 'object' ? input : {}) as Partial<TargetSource>;
  const manifest = targetManifestSchema.safeParse(authoredManifest(targetId, source));
  if (!manifest.success) {
    for (const issue of manifest.error.issues) {
      const pointer = jsonPointer(issue.path);
      if (!problems.some((known) => known.path === pointer)) problems.push(problem(issue.path, issue.message));
    }
  }
  if (typeof source.html === 'string' && /<script\b/i.test(source.html))
    problems.push(problem(['html'], 'must not contain <script>: put the code in `script`, which the host runs'));
  const network = manifest.success ? (manifest.data.permissions?.network ?? []) : [];
  network.forEach((origin, index) => {
    const parsed = networkOriginSchema.safeParse(origin);
    if (!parsed.success) problems.push(problem(['permissions', 'network', index], parsed.error.issues[0]!.message));
  });
  if (problems.length > 0 || !shape.success || !manifest.success) return { ok: false, problems };
  const { html, css, script } = shape.data;
  return {
    ok: true,
    manifest: manifest.data,
    files: { html, script, ...(css !== undefined ? { css } : {}) },
    requested: requestedGrants(manifest.data),
  };
}

export function requestedGrants(manifest: TargetManifest): TargetGrant[] {
  const permissions = manifest.permissions;
  if (!permissions) return [];
  return [
    ...permissions.network.map((origin) => ({ permission: 'network' as const, origin })),
    ...(permissions.clipboard ? [{ permission: 'clipboard' as const }] : []),
    ...(permissions.download ? [{ permission: 'download' as const }] : []),
  ];
}
