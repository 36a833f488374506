import type { PageViewport } from '../protocol/page-wire';

export interface Point {
  x: number;
  y: number;
}

/**
 * CSS pixels per screenshot pixel for a `captureVisibleTab` image of that viewport. The image covers the layout
 * viewport (scrollbars included, like `innerWidth`), so the ratio of widths holds at every device pixel ratio and
 * browser zoom; `1 / devicePixelRatio` is the fallback when the image width is unknown.
 */
export function cssPixelsPerScreenshotPixel(viewport: PageViewport, screenshotWidth?: number): number {
  if (screenshotWidth !== undefined && screenshotWidth > 0 && viewport.width > 0)
    return viewport.width / screenshotWidth;
  return 1 / viewport.devicePixelRatio;
}

/** A point on the observation's screenshot → the top frame's viewport CSS px. */
export function screenshotToViewportCss(point: Point, cssPerScreenshotPixel: number): Point {
  return { x: point.x * cssPerScreenshotPixel, y: point.y * cssPerScreenshotPixel };
}

/**
 * A point in the top frame's viewport → the viewport of a nested frame, given each iframe's content box from the
 * outermost parent inwards (`PageChildFrame.contentBox` of every frame on the way). Undefined when it falls outside.
 */
export function pointInFrame(point: Point, contentBoxes: { x: number; y: number; width: number; height: number }[]) {
  let current = point;
  for (const box of contentBoxes) {
    current = { x: current.x - box.x, y: current.y - box.y };
    if (current.x < 0 || current.y < 0 || current.x >= box.width || current.y >= box.height) return undefined;
  }
  return current;
}
