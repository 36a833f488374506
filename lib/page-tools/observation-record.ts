import type { BlobRef } from '../protocol/blob-ref';
import type { PageObservationData } from '../protocol/page-wire';
import type { PageChoice } from './choose-page';
import type { FrameObservation } from '../page-observation/stitch-frames';
import type { ObservationRecord, RefRecord } from './page-observation';

/** The smallest top-frame ref whose box holds the point: what a coordinate action was aimed at, checked in the page. */
export function refAtPoint(record: ObservationRecord, point: { x: number; y: number }): string | undefined {
  const holding = Object.entries(record.refs).filter(
    ([ref, info]) =>
      /^e\d+$/.test(ref) &&
      point.x >= info.box.x &&
      point.y >= info.box.y &&
      point.x < info.box.x + info.box.width &&
      point.y < info.box.y + info.box.height,
  );
  holding.sort(([, a], [, b]) => a.box.width * a.box.height - b.box.width * b.box.height);
  return holding[0]?.[0];
}

/** The runtime's record of an observation: every frame's refs under its stitched prefix, and what actions check. */
export function observationRecord(
  observationId: string,
  page: Extract<PageChoice, { ok: true }>,
  frames: FrameObservation[],
  prefixes: Record<string, number>,
  zoom: number,
  shot: { ref: BlobRef; cssPerPixel: number } | undefined,
): ObservationRecord {
  const prefixOf = new Map(Object.entries(prefixes).map(([prefix, frameId]) => [frameId, prefix]));
  const refs: Record<string, RefRecord> = {};
  const frameRecords: ObservationRecord['frames'] = {};
  for (const { frameId, observation } of frames) {
    const prefix = frameId === 0 ? '' : prefixOf.get(frameId);
    if (prefix === undefined) continue;
    frameRecords[frameId] = {
      documentId: observation.documentId,
      modal: observation.modal,
      viewport: observation.viewport,
    };
    for (const [ref, info] of Object.entries(observation.refs)) refs[`${prefix}${ref}`] = refRecord(info, frameId);
  }
  const top = frames.find((frame) => frame.frameId === 0)?.observation ?? frames[0].observation;
  const { width, height, scrollX, scrollY, devicePixelRatio } = top.viewport;
  return {
    observationId,
    tabId: page.tab.tabId,
    frameId: 0,
    documentId: top.documentId,
    url: top.url,
    origin: page.origin,
    title: top.title,
    viewport: { width, height, scrollX, scrollY, devicePixelRatio, zoom },
    capturedAt: top.capturedAt,
    refs,
    expected: { modal: top.modal, viewport: top.viewport },
    frames: frameRecords,
    ...(shot?.ref.width && shot.ref.height
      ? { screenshot: { width: shot.ref.width, height: shot.ref.height, cssPerPixel: shot.cssPerPixel } }
      : {}),
  };
}

function refRecord(info: PageObservationData['refs'][string], frameId: number): RefRecord {
  const sensitive = sensitivityOf(info);
  return {
    role: info.role,
    name: info.name,
    box: info.box,
    frameId,
    ...(info.checked !== undefined ? { checked: info.checked } : {}),
    ...(info.inputType !== undefined ? { inputType: info.inputType } : {}),
    ...(sensitive ? { sensitive } : {}),
  };
}

/** A password field or a file input, from what the agent reports (its input type when it says, else its name). */
function sensitivityOf(info: { tag: string; name: string; inputType?: string }): RefRecord['sensitive'] {
  const type = info.inputType?.toLowerCase();
  if (type === 'password') return 'password';
  if (type === 'file') return 'file';
  if (type === undefined && info.tag === 'input' && /pass(word|code)|\bpin\b/i.test(info.name)) return 'password';
  return undefined;
}
