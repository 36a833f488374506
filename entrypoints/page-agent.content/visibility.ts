import type { PageBox } from '@/lib/protocol/page-wire';

/**
 * What a parent passes down: whether it is already invisible to a sighted user, the colour behind its text, and its
 * computed cursor (a child's `cursor: pointer` that only repeats it is inherited, not its own).
 */
export interface InheritedLook {
  invisible: boolean;
  background: string;
  cursor: string;
}

const TRANSPARENT = new Set(['transparent', 'rgba(0, 0, 0, 0)']);

export function boxOf(element: Element): PageBox {
  const rect = element.getBoundingClientRect();
  return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
}

/** Rendered at all (display, visibility, content-visibility): what is not, is not in the tree either. */
export function isRendered(element: Element): boolean {
  if (element.getAttribute('aria-hidden') === 'true') return false;
  if (typeof element.checkVisibility === 'function')
    return element.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: false });
  const style = getComputedStyle(element);
  return style.display !== 'none' && style.visibility !== 'hidden';
}

export function inViewport(box: PageBox): boolean {
  return box.x + box.width > 0 && box.y + box.height > 0 && box.x < innerWidth && box.y < innerHeight;
}

function offScreen(box: PageBox): boolean {
  const left = box.x + scrollX;
  const top = box.y + scrollY;
  const width = document.documentElement.scrollWidth;
  return left + box.width <= 0 || top + box.height <= 0 || left >= width + 1000;
}

function clipped(style: CSSStyleDeclaration): boolean {
  if (style.clip === 'rect(0px, 0px, 0px, 0px)' || style.clip === 'rect(0px 0px 0px 0px)') return true;
  return /inset\(\s*(50%|100%)/.test(style.clipPath);
}

/**
 * Whether a sighted user cannot see this element's text: off-screen, zero-size, clipped, fully transparent (the
 * element or an ancestor), a zero font size, or text coloured like the background behind it. Only transparency and
 * clipping pass to children: a zero-height wrapper of floated or positioned children hides nothing.
 */
export function lookOf(element: Element, box: PageBox, inherited: InheritedLook): ElementLook {
  const style = getComputedStyle(element);
  const background = TRANSPARENT.has(style.backgroundColor) ? inherited.background : style.backgroundColor;
  const passedDown = inherited.invisible || style.opacity === '0' || clipped(style);
  const tiny = (box.width < 2 || box.height < 2) && style.display !== 'contents';
  const hidden =
    passedDown ||
    tiny ||
    offScreen(box) ||
    style.fontSize === '0px' ||
    TRANSPARENT.has(style.color) ||
    style.color === background;
  return { hidden, inherited: { invisible: passedDown, background, cursor: style.cursor } };
}

export interface ElementLook {
  /** The element's own text and name cannot be seen. */
  hidden: boolean;
  inherited: InheritedLook;
}

export const DOCUMENT_LOOK: InheritedLook = { invisible: false, background: 'rgb(255, 255, 255)', cursor: 'auto' };
