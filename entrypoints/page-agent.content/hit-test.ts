import { composedContains, deepElementFromPoint } from './shadow-root';
import { BADGE_TAG } from './acting-badge';

export type HitTest = { ok: true; hit: Element } | { ok: false; covering: Element | null };

/** A label's own control counts as hit: clicking a label is how a person ticks a styled checkbox. */
function labelFor(hit: Element, target: Element): boolean {
  const label = hit.closest('label');
  return label !== null && label.control === target;
}

/** What is at the point, and whether it is the target or inside it (through shadow roots). Never clicks through. */
export function hitTest(target: Element, x: number, y: number): HitTest {
  const hit = deepElementFromPoint(x, y);
  if (hit === null) return { ok: false, covering: null };
  // The agent's own badge is not the page: it never counts as covering what the agent acts on.
  const root = hit.getRootNode();
  if (root instanceof ShadowRoot && root.host.localName === BADGE_TAG) return { ok: true, hit: target };
  if (composedContains(target, hit) || labelFor(hit, target)) return { ok: true, hit };
  return { ok: false, covering: hit };
}

/** The point a person would click: the centre of the element's first box that is inside the viewport. */
export function actionPoint(element: Element): { x: number; y: number } | undefined {
  const rects = [...element.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
  for (const rect of rects) {
    const left = Math.max(rect.left, 0);
    const right = Math.min(rect.right, innerWidth);
    const top = Math.max(rect.top, 0);
    const bottom = Math.min(rect.bottom, innerHeight);
    if (right > left && bottom > top) return { x: (left + right) / 2, y: (top + bottom) / 2 };
  }
  return undefined;
}

/**
 * Scrolls the element to the middle of the viewport unless it is wholly inside it already (or, larger than the
 * viewport, shows part of itself): a person brings what they act on into view first.
 */
export function scrollIntoViewIfNeeded(element: Element): void {
  const box = element.getBoundingClientRect();
  const fits = box.height <= innerHeight && box.width <= innerWidth;
  const needed = fits
    ? box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth
    : actionPoint(element) === undefined;
  if (needed) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}
