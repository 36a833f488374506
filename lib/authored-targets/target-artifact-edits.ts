import type { TargetArtifactProblem } from '../protocol/target-artifact-events';
import type { TargetFiles } from './target-artifact-draft';
import type { TargetEdit } from './target-artifact-source';

export type EditsResult = { ok: true; files: TargetFiles } | { ok: false; problems: TargetArtifactProblem[] };

function occurrences(text: string, find: string): number {
  let count = 0;
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + find.length)) count += 1;
  return count;
}

/** Applies exact find/replace edits in order; each must match exactly once, or nothing is applied. */
export function applyTargetEdits(files: TargetFiles, edits: readonly TargetEdit[]): EditsResult {
  const next: TargetFiles = { ...files };
  const problems: TargetArtifactProblem[] = [];
  edits.forEach((edit, index) => {
    const text = next[edit.part] ?? '';
    const count = occurrences(text, edit.find);
    if (count !== 1) {
      problems.push({
        code: count === 0 ? 'EDIT_NOT_FOUND' : 'EDIT_AMBIGUOUS',
        path: `/edits/${index}/find`,
        message:
          count === 0
            ? `edit ${index}: the text to find does not occur in ${edit.part}`
            : `edit ${index}: the text to find occurs ${count} times in ${edit.part}; give more context so it matches once`,
      });
      return;
    }
    const at = text.indexOf(edit.find);
    next[edit.part] = text.slice(0, at) + edit.replace + text.slice(at + edit.find.length);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, files: next };
}
