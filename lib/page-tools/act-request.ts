import type { PageRequest, PageTarget } from '../protocol/page-wire';
import { screenshotToViewportCss } from '../page-observation/screenshot-point';
import type { PageToolInput } from './page-tool-inputs';
import { refAtPoint } from './observation-record';
import type { ObservationRecord } from './page-observation';
import { wireWaitFor } from './page-wait-for';

type ActInput = PageToolInput<'actOnPage'>;

/** Where an action lands: the page agent's target in the frame that has it, or why there is none. */
export type ActTarget =
  | { ok: true; target?: PageTarget; frameId: number }
  | { ok: false; code: 'NOT_FOUND' | 'STALE_OBSERVATION' | 'INVALID_INPUT'; reason: string };

/** The page agent's target, in the order the issue prefers: ref, selector, role and name, then a point. */
export async function actTarget(
  input: ActInput,
  record: ObservationRecord,
  zoomOf: (tabId: number) => Promise<number>,
): Promise<ActTarget> {
  if (input.ref) {
    const ref = record.refs[input.ref];
    if (!ref)
      return {
        ok: false,
        code: 'NOT_FOUND',
        reason: `No ref "${input.ref}" in observation ${record.observationId}.`,
      };
    return { ok: true, target: { kind: 'ref', ref: input.ref.replace(/^f\d+/, '') }, frameId: ref.frameId };
  }
  if (input.selector)
    return { ok: true, target: { kind: 'selector', selector: input.selector }, frameId: record.frameId };
  if (input.role)
    return { ok: true, target: { kind: 'role', role: input.role, name: input.name ?? '' }, frameId: record.frameId };
  if (input.x !== undefined && input.y !== undefined) return pointTarget(input, record, zoomOf);
  if (input.action === 'press' || input.action === 'scroll') return { ok: true, frameId: record.frameId };
  return {
    ok: false,
    code: 'INVALID_INPUT',
    reason: 'Name a target: a ref, a selector, a role and name, or x/y with coordinateSpace.',
  };
}

async function pointTarget(
  input: ActInput,
  record: ObservationRecord,
  zoomOf: (tabId: number) => Promise<number>,
): Promise<ActTarget> {
  const x = input.x ?? 0;
  const y = input.y ?? 0;
  if (!input.coordinateSpace)
    return {
      ok: false,
      code: 'INVALID_INPUT',
      reason: 'Coordinates must name their space: "viewport-css" or "screenshot-px".',
    };
  const zoom = await zoomOf(record.tabId).catch(() => Number.NaN);
  if (zoom !== record.viewport.zoom)
    return { ok: false, code: 'STALE_OBSERVATION', reason: 'The zoom changed since the observation.' };
  if (input.coordinateSpace === 'viewport-css')
    return { ok: true, target: { kind: 'point', x, y }, frameId: record.frameId };
  if (!record.screenshot)
    return {
      ok: false,
      code: 'INVALID_INPUT',
      reason: 'That observation has no screenshot: use viewport-css or observe with a screenshot.',
    };
  const point = screenshotToViewportCss({ x, y }, record.screenshot.cssPerPixel);
  return { ok: true, target: { kind: 'point', ...point }, frameId: record.frameId };
}

/**
 * The `page/act` request for an action on a target: what the observation expected of the target's frame and of
 * the element (checked in the page, atomically with the action), and the action's own fields.
 */
export function actRequest(
  input: ActInput,
  record: ObservationRecord,
  target: Extract<ActTarget, { ok: true }>,
): { ok: true; request: PageRequest } | { ok: false; reason: string } {
  const waitFor = input.waitFor ? wireWaitFor(input.waitFor) : undefined;
  if (waitFor && !waitFor.ok) return { ok: false, reason: waitFor.reason };
  const to = dropTarget(input, record, target.frameId);
  if (typeof to === 'string') return { ok: false, reason: to };
  const pointRef = target.target?.kind === 'point' ? refAtPoint(record, target.target) : undefined;
  const ref = input.ref ? record.refs[input.ref] : pointRef ? record.refs[pointRef] : undefined;
  const frame = record.frames[target.frameId] ?? { documentId: record.documentId, ...record.expected };
  const request: PageRequest = {
    type: 'page/act',
    action: input.action,
    ...(target.target ? { target: target.target } : {}),
    expected: {
      documentId: frame.documentId,
      modal: frame.modal,
      viewport: frame.viewport,
      ...(ref
        ? {
            ref: {
              role: ref.role,
              name: ref.name,
              ...(ref.checked !== undefined ? { checked: ref.checked } : {}),
              ...(ref.inputType !== undefined ? { inputType: ref.inputType } : {}),
            },
          }
        : {}),
      ...(pointRef ? { pointRef } : {}),
    },
    ...(input.text !== undefined ? { text: input.text } : {}),
    ...(input.key !== undefined ? { key: input.key } : {}),
    ...(input.option !== undefined ? { option: input.option } : {}),
    ...(input.deltaY !== undefined ? { deltaY: input.deltaY } : {}),
    ...(to ? { to } : {}),
    ...(waitFor?.ok ? { waitFor: waitFor.waitFor } : {}),
  };
  return { ok: true, request };
}

/** A drag's drop target, as the page agent checks it; a string says why there is none. */
function dropTarget(
  input: ActInput,
  record: ObservationRecord,
  frameId: number,
): { ref: string; role: string; name: string } | string | undefined {
  if (input.action !== 'drag') return undefined;
  if (!input.toRef) return 'drag needs `toRef`: the ref to drop on.';
  const to = record.refs[input.toRef];
  if (!to) return `No ref "${input.toRef}" in observation ${record.observationId}.`;
  if (to.frameId !== frameId) return 'A drag starts and ends in one frame.';
  return { ref: input.toRef.replace(/^f\d+/, ''), role: to.role, name: to.name };
}
