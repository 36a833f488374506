import type { PageBox } from '../protocol/page-wire';

/** A numbered box over one ref of an observation, in the top frame's viewport CSS px. */
export interface ScreenshotMark {
  mark: number;
  ref: string;
  box: PageBox;
}

/** Containers a person does not act on: their boxes would cover the marks of what is inside them. */
const UNMARKED_ROLES = new Set([
  'main',
  'region',
  'form',
  'navigation',
  'list',
  'table',
  'tabpanel',
  'dialog',
  'alertdialog',
  'menu',
  'tablist',
  'iframe',
]);

export const MAX_MARKS = 200;

/**
 * The Set-of-Marks of an observation: every top-frame ref a person could act on whose box shows in the viewport,
 * clipped to it, numbered from 1 in reading order (top to bottom, then left to right).
 */
export function marksFor(
  refs: Record<string, { role: string; box: PageBox }>,
  viewport: { width: number; height: number },
): ScreenshotMark[] {
  const shown = Object.entries(refs).flatMap(([ref, info]) => {
    if (!/^e\d+$/.test(ref) || UNMARKED_ROLES.has(info.role)) return [];
    const box = clip(info.box, viewport);
    return box ? [{ ref, box }] : [];
  });
  shown.sort((a, b) => Math.round(a.box.y) - Math.round(b.box.y) || a.box.x - b.box.x);
  return shown.slice(0, MAX_MARKS).map((entry, index) => ({ mark: index + 1, ...entry }));
}

function clip(box: PageBox, viewport: { width: number; height: number }): PageBox | undefined {
  const left = Math.max(box.x, 0);
  const top = Math.max(box.y, 0);
  const right = Math.min(box.x + box.width, viewport.width);
  const bottom = Math.min(box.y + box.height, viewport.height);
  if (right - left < 1 || bottom - top < 1) return undefined;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** What the model reads beside the marked image: mark number → ref. */
export function marksLegend(marks: ScreenshotMark[]): Record<string, string> {
  return Object.fromEntries(marks.map(({ mark, ref }) => [String(mark), ref]));
}
