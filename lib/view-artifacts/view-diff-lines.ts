import { parsePatch, structuredPatch, type StructuredPatch } from 'diff';
import type { DiffData } from '../protocol/view-artifact-data';

export type DiffLine =
  | { kind: 'file'; text: string }
  | { kind: 'hunk'; text: string }
  | { kind: 'add' | 'remove' | 'context'; text: string; oldLine?: number; newLine?: number }
  | { kind: 'note'; text: string };

export interface DiffView {
  lines: DiffLine[];
  added: number;
  removed: number;
}

const KIND_OF: Record<string, 'add' | 'remove' | 'context' | undefined> = { '+': 'add', '-': 'remove', ' ': 'context' };

function patchLines(patch: StructuredPatch, view: DiffView, showFile: boolean): void {
  if (showFile && (patch.oldFileName || patch.newFileName))
    view.lines.push({ kind: 'file', text: `${patch.oldFileName ?? ''} → ${patch.newFileName ?? ''}` });
  for (const hunk of patch.hunks) {
    view.lines.push({
      kind: 'hunk',
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const kind = KIND_OF[line[0] ?? ''];
      if (!kind) {
        view.lines.push({ kind: 'note', text: line.slice(1).trim() });
        continue;
      }
      const text = line.slice(1);
      if (kind === 'add') {
        view.lines.push({ kind, text, newLine: newLine++ });
        view.added += 1;
      } else if (kind === 'remove') {
        view.lines.push({ kind, text, oldLine: oldLine++ });
        view.removed += 1;
      } else view.lines.push({ kind, text, oldLine: oldLine++, newLine: newLine++ });
    }
  }
}

/** The lines to show for a diff artifact: computed from its two texts with jsdiff, or read from its unified patch. */
export function diffView(data: DiffData): DiffView {
  const view: DiffView = { lines: [], added: 0, removed: 0 };
  if ('patch' in data) {
    let patches: StructuredPatch[];
    try {
      patches = parsePatch(data.patch);
    } catch (error) {
      return { ...view, lines: [{ kind: 'note', text: `Not a unified diff: ${(error as Error).message}` }] };
    }
    for (const patch of patches) patchLines(patch, view, patches.length > 1 || Boolean(patch.newFileName));
    if (view.lines.length === 0) view.lines.push({ kind: 'note', text: 'The patch holds no changes.' });
    return view;
  }
  const name = data.filename ?? '';
  patchLines(structuredPatch(name, name, data.before, data.after, '', '', { context: 3 }), view, false);
  if (view.lines.length === 0) view.lines.push({ kind: 'note', text: 'No differences.' });
  return view;
}
