import type { PageObservationData } from '../protocol/page-wire';

/** One frame's observation as the runtime collected it (frame ids from `tabs.sendMessage`/`webNavigation`). */
export interface FrameObservation {
  frameId: number;
  parentFrameId: number;
  observation: PageObservationData;
}

export interface StitchedPageTree {
  snapshot: string;
  /** `f1` → frameId; the top frame has no prefix. */
  prefixes: Record<string, number>;
  /** Where each frame sits in the top viewport (the sum of iframe content boxes), for point targets. */
  offsets: Record<number, { x: number; y: number }>;
}

const IFRAME_REF = / \[ref=(e\d+)\]/;

/** `e3` → `f1e3` on every ref of a child frame's lines. */
function prefixRefs(snapshot: string, prefix: string): string {
  return snapshot.replace(/\[ref=(e\d+)\]/g, `[ref=${prefix}$1]`);
}

function indent(text: string, depth: number): string {
  const pad = '  '.repeat(depth);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => pad + line)
    .join('\n');
}

/** The children of each frame, matched to the parent's iframe refs: by frameId when known, else by URL in order. */
function matchChildren(frames: FrameObservation[], parent: FrameObservation): Map<string, FrameObservation> {
  const children = frames.filter((frame) => frame.parentFrameId === parent.frameId);
  const matched = new Map<string, FrameObservation>();
  const used = new Set<number>();
  for (const child of parent.observation.childFrames) {
    const byId = children.find((frame) => child.frameId !== undefined && frame.frameId === child.frameId);
    const byUrl = children.find((frame) => !used.has(frame.frameId) && frame.observation.url === child.src);
    const found = byId ?? byUrl;
    if (found === undefined || used.has(found.frameId)) continue;
    used.add(found.frameId);
    matched.set(child.ref, found);
  }
  return matched;
}

/**
 * One page tree for a tab: each child frame's lines nest under its iframe line in the parent, with refs prefixed by
 * the frame (`f1e3`). Frames the parent does not show (left out by its budget) are dropped, as their iframe is.
 */
export function stitchFrames(frames: FrameObservation[]): StitchedPageTree {
  const top = frames.find((frame) => frame.parentFrameId === -1) ?? frames[0];
  const prefixes: Record<string, number> = {};
  const offsets: Record<number, { x: number; y: number }> = { [top.frameId]: { x: 0, y: 0 } };
  const render = (frame: FrameObservation, prefix: string): string => {
    const children = matchChildren(frames, frame);
    const lines = frame.observation.snapshot.split('\n').map((line) => {
      const ref = IFRAME_REF.exec(line)?.[1];
      const child = ref === undefined ? undefined : children.get(ref);
      const own = prefix === '' ? line : prefixRefs(line, prefix);
      if (child === undefined || ref === undefined) return own;
      const childPrefix = `f${Object.keys(prefixes).length + 1}`;
      prefixes[childPrefix] = child.frameId;
      const box = frame.observation.childFrames.find((entry) => entry.ref === ref)?.contentBox;
      const base = offsets[frame.frameId] ?? { x: 0, y: 0 };
      offsets[child.frameId] = { x: base.x + (box?.x ?? 0), y: base.y + (box?.y ?? 0) };
      const depth = (/^ */.exec(line)?.[0].length ?? 0) / 2 + 1;
      const header = own.endsWith(':') ? own : `${own}:`;
      return `${header}\n${indent(render(child, childPrefix), depth)}`;
    });
    return lines.join('\n');
  };
  return { snapshot: render(top, ''), prefixes, offsets };
}

/** `f1e3` → `{ prefix: 'f1', ref: 'e3' }`; a top-frame ref has prefix ''. */
export function splitFrameRef(ref: string): { prefix: string; ref: string } | undefined {
  const match = /^(f\d+)?(e\d+)$/.exec(ref);
  if (match === null) return undefined;
  return { prefix: match[1] ?? '', ref: match[2] };
}
