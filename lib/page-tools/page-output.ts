import type { BlobRef } from '../protocol/blob-ref';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { PageObservationData } from '../protocol/page-wire';
import type { PageFence } from './page-fence';
import type { ObservationRecord } from './page-observation';

/**
 * An observation as the model reads it. Everything the page wrote (title, snapshot, events, its tools, their
 * descriptions) is inside the fence; the numbers and ids the runtime measured are outside it.
 */
export function fencedObservation(
  record: ObservationRecord,
  data: PageObservationData,
  screenshot: BlobRef | undefined,
  fence: PageFence,
): JsonObject {
  return {
    observationId: record.observationId,
    tabId: record.tabId,
    frameId: record.frameId,
    documentId: record.documentId,
    url: record.url,
    title: fence.wrap(data.title),
    capturedAt: record.capturedAt,
    viewport: { ...record.viewport },
    snapshot: fence.wrap(data.snapshot),
    truncated: data.truncated ? { ...data.truncated, hint: data.truncated.hint } : null,
    events: data.events.length > 0 ? fence.wrap(data.events.map(eventLine).join('\n')) : null,
    pageTools: data.pageTools.length > 0 ? fence.wrap(data.pageTools.map(toolLines).join('\n')) : null,
    ...(screenshot && record.screenshot
      ? {
          screenshot: {
            ...screenshot,
            cssPixelsPerScreenshotPixel: record.screenshot.cssPerPixel,
          },
          images: [screenshot],
        }
      : {}),
  };
}

/** A value the page returned (a page tool's result), as fenced JSON text. */
export function fencedText(value: JsonValue, fence: PageFence): string {
  return fence.wrap(typeof value === 'string' ? value : JSON.stringify(value, null, 1));
}

function eventLine(event: { at: number; kind: string; text: string }): string {
  return `- ${event.kind} at ${new Date(event.at).toISOString()}: ${event.text}`;
}

function toolLines(tool: { name: string; description: string; inputSchema?: JsonValue }): string {
  const schema = tool.inputSchema === undefined ? '' : `\n  input: ${JSON.stringify(tool.inputSchema)}`;
  return `- ${tool.name}: ${tool.description}${schema}`;
}
