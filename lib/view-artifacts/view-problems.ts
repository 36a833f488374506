import type { z } from 'zod';

/** One thing wrong with the model's or the user's data: where (a JSON Pointer, RFC 6901) and what. */
export type ViewProblem = { path: string; message: string };

/** At most this many problems are reported for one call: enough to fix it in one go, bounded for the log. */
export const MAX_PROBLEMS = 50;

/** A JSON Pointer from a path of keys and indexes, under `prefix` (itself a pointer, '' for the root). */
export function jsonPointer(path: readonly PropertyKey[], prefix = ''): string {
  return prefix + path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** zod's issues as problems: every issue, each with its pointer; a union's branches are read for the deepest cause. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], prefix = ''): ViewProblem[] {
  const problems: ViewProblem[] = [];
  for (const issue of issues) {
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
      problems.push(...problemsFromIssues(closest, jsonPointer(issue.path, prefix)));
      continue;
    }
    problems.push({ path: jsonPointer(issue.path, prefix), message: issue.message });
  }
  return problems.slice(0, MAX_PROBLEMS);
}

/** The problems as one line the model can read. */
export function problemsText(problems: readonly ViewProblem[]): string {
  return problems.map((problem) => `${problem.path || '/'}: ${problem.message}`).join('; ');
}
