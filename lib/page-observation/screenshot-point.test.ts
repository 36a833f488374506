import { describe, expect, it } from 'vitest';
import { cssPixelsPerScreenshotPixel, pointInFrame, screenshotToViewportCss } from './screenshot-point';

const viewport = (width: number, devicePixelRatio: number) => ({
  width,
  height: 600,
  scrollX: 0,
  scrollY: 0,
  devicePixelRatio,
  visualScale: 1,
});

describe('screenshot point conversion', () => {
  it('uses the ratio of widths at every device pixel ratio and zoom', () => {
    expect(cssPixelsPerScreenshotPixel(viewport(800, 2), 1600)).toBe(0.5);
    // 150% zoom on a DPR 1 screen: 800 device px show 533.33 CSS px.
    expect(cssPixelsPerScreenshotPixel(viewport(800 / 1.5, 1.5), 800)).toBeCloseTo(1 / 1.5);
    expect(screenshotToViewportCss({ x: 300, y: 90 }, 0.5)).toEqual({ x: 150, y: 45 });
  });

  it('falls back to the device pixel ratio without an image width', () => {
    expect(cssPixelsPerScreenshotPixel(viewport(800, 2))).toBe(0.5);
  });

  it('maps a top-viewport point into nested frames and refuses points outside them', () => {
    const boxes = [
      { x: 100, y: 50, width: 300, height: 200 },
      { x: 10, y: 20, width: 100, height: 100 },
    ];
    expect(pointInFrame({ x: 150, y: 100 }, boxes)).toEqual({ x: 40, y: 30 });
    expect(pointInFrame({ x: 90, y: 100 }, boxes)).toBeUndefined();
    expect(pointInFrame({ x: 250, y: 100 }, boxes)).toBeUndefined();
  });
});
