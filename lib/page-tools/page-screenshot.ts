import { errorText } from '../protocol/error-text';
import type { BlobRef } from '../protocol/blob-ref';
import type { PageObservationData } from '../protocol/page-wire';
import { cssPixelsPerScreenshotPixel } from '../page-observation/screenshot-point';
import { drawMarks } from '../page-observation/draw-marks';
import { marksFor, marksLegend } from '../page-observation/set-of-marks';
import type { OpenPage } from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';

/** Chrome allows two `captureVisibleTab` calls a second; a little more than half a second apart keeps under it. */
export const CAPTURE_SPACING_MS = 550;

export type PageScreenshot =
  { ref: BlobRef; cssPerPixel: number; marks?: Record<string, string> } | { unavailable: string };

/** Captures the page's tab (with Set-of-Marks drawn when asked) and stores it as a blob of the call. */
export async function pageScreenshot(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  data: PageObservationData,
  withMarks: boolean,
): Promise<PageScreenshot> {
  // captureVisibleTab shows the window's active tab only; a page behind the panel's own tab cannot be captured.
  if (!page.tab.active)
    return { unavailable: 'Only the tab in front of its window can be captured, and this page is behind another.' };
  const { dependencies } = context;
  let captured: Uint8Array;
  try {
    captured = await context.captures.run(() => dependencies.platform.capture(page.tab.windowId));
  } catch (error) {
    return { unavailable: captureFailure(errorText(error)) };
  }
  const marks = withMarks ? marksFor(data.refs, data.viewport) : [];
  const draw = dependencies.drawMarks ?? drawMarks;
  const marked = withMarks ? await draw(captured, marks, data.viewport.width).catch(() => undefined) : undefined;
  const ref = await dependencies.storeScreenshot(marked ?? captured, call.sessionId, call.toolCallId);
  if (!ref?.width) return { unavailable: 'The screenshot could not be stored.' };
  const legend = marked ? { marks: marksLegend(marks) } : {};
  return { ref, cssPerPixel: cssPixelsPerScreenshotPixel(data.viewport, ref.width), ...legend };
}

/** Chrome captures a tab only with access to all sites or the user's invocation (activeTab), not a site's grant. */
function captureFailure(message: string): string {
  if (/<all_urls>|activeTab/.test(message))
    return 'The browser lets Splitbrain capture a tab only with access to all sites, or after the user clicks its toolbar button (or shortcut) on that page; access to this site alone is not enough. Ask the user for one of them, or go on without a screenshot.';
  return `The screenshot failed: ${message}`;
}
