/** A problem as zod reports it (or as a check written in its manner does). */
export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
}

export interface IssueFormat {
  /** `pointer` writes the path as a JSON Pointer (`/edits/0/find`); by default it is dotted (`edits.0.find`). */
  path?: 'dotted' | 'pointer';
  /** What a dotted empty path is called, e.g. `input`; by default nothing. */
  root?: string;
}

/** One issue as `path: message`. */
export function issueText(issue: IssueLike, format: IssueFormat = {}): string {
  const names = issue.path.map(String);
  const path = format.path === 'pointer' ? `/${names.join('/')}` : names.join('.') || (format.root ?? '');
  return `${path}: ${issue.message}`;
}

/** Every issue as `path: message`, joined with `; `. */
export function issuesText(issues: readonly IssueLike[], format: IssueFormat = {}): string {
  return issues.map((issue) => issueText(issue, format)).join('; ');
}
