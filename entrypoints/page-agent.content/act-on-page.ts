import { checkStaleness } from '@/lib/page-observation/check-staleness';
import type { PageActResult, PageHit, PageRequest } from '@/lib/protocol/page-wire';
import { describeElement } from './accessibility-tree';
import { agentState, elementForRef, refFor } from './agent-state';
import { click, hover, isEditable, pressKey, scrollBy, selectOption, typeText } from './dispatch-input';
import { roleOf } from './element-role';
import { actionPoint, hitTest, scrollIntoViewIfNeeded } from './hit-test';
import { dragAndDrop } from './drag-and-drop';
import { isCustomSelect, pickOption } from './pick-option';
import { locateTarget } from './locate-target';
import { modalState } from './modal-state';
import { viewportNow } from './observe-page';
import { composedContains, deepElementFromPoint } from './shadow-root';
import { boxOf } from './visibility';
import { uploadInto } from './upload-file';
import { prepareWait } from './wait-for';

type ActRequest = Extract<PageRequest, { type: 'page/act' }>;
type Failure = Extract<PageActResult, { ok: false }>;

const POINTER_ACTIONS = new Set(['click', 'check', 'hover', 'type', 'select', 'drag']);
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

function fail(code: Failure['code'], reason: string, extra: Partial<Failure> = {}): Failure {
  return { type: 'page/act-result', ok: false, code, reason, ...extra };
}

function hitOf(element: Element): PageHit {
  const { role, name } = describeElement(element);
  return { ref: refFor(element), role, name: name.slice(0, 2000), tag: element.localName, box: boxOf(element) };
}

function covering(element: Element | null): Failure['covering'] {
  if (element === null) return undefined;
  const { role, name } = describeElement(element);
  return { role, name: name.slice(0, 200), tag: element.localName };
}

type Point = { x: number; y: number };
type Resolved = { element: Element; point?: Point } | { failure: Failure };

/** A point target: the point must still fall on the element the observation had there (`pointRef`). */
function resolvePoint(request: ActRequest, x: number, y: number): Resolved {
  const hit = deepElementFromPoint(x, y);
  if (hit === null) return { failure: fail('NOT_FOUND', `Nothing is at (${x}, ${y}) in the viewport.`) };
  if (request.expected.pointRef === undefined) return { element: hit, point: { x, y } };
  const expected = elementForRef(request.expected.pointRef);
  if (expected === undefined || !expected.isConnected)
    return { failure: fail('STALE_OBSERVATION', 'The element that was at that point left the page.') };
  const wanted = request.expected.ref;
  const now = describeElement(expected);
  if (
    wanted !== undefined &&
    (now.role !== wanted.role || now.name !== wanted.name || (now.checked ?? false) !== (wanted.checked ?? false))
  )
    return {
      failure: fail(
        'STALE_OBSERVATION',
        `The element at that point changed from ${wanted.role} "${wanted.name}" to ${now.role} "${now.name}".`,
      ),
    };
  const box = expected.getBoundingClientRect();
  if (x < box.left || x > box.right || y < box.top || y > box.bottom)
    return { failure: fail('STALE_OBSERVATION', 'The element that was at that point has moved.') };
  const tested = hitTest(expected, x, y);
  if (!tested.ok) return { failure: coveredFailure(expected, tested.covering) };
  return { element: expected, point: { x, y } };
}

function coveredFailure(target: Element, cover: Element | null): Failure {
  const what = covering(cover);
  const described = describeElement(target);
  const by = what ? `${what.role} "${what.name}" (<${what.tag}>)` : 'nothing hit-testable';
  return fail('COVERED', `${described.role} "${described.name}" is covered by ${by}; nothing was clicked.`, {
    covering: what,
  });
}

function resolve(request: ActRequest): Resolved {
  const target = request.target;
  const kind = target?.kind ?? 'none';
  const located = target === undefined || target.kind === 'point' ? undefined : locateTarget(target);
  const element = located?.found ? located.element : undefined;
  const staleness = checkStaleness(kind, request.expected, {
    documentId: agentState().documentId,
    modal: modalState(),
    viewport: viewportNow(),
    element:
      kind === 'ref'
        ? element
          ? { attached: element.isConnected, ...describeElement(element) }
          : { attached: false, role: '', name: '' }
        : undefined,
  });
  if (staleness.stale) return { failure: fail('STALE_OBSERVATION', staleness.reason) };
  if (target?.kind === 'point') return resolvePoint(request, target.x, target.y);
  if (located !== undefined && !located.found) return { failure: fail('NOT_FOUND', located.reason) };
  const focused = element ?? document.activeElement ?? document.body;
  if (request.action === 'upload' && element === undefined)
    return { failure: fail('NOT_FOUND', 'upload needs a target.') };
  if (element !== undefined) scrollIntoViewIfNeeded(element);
  if (!POINTER_ACTIONS.has(request.action)) return { element: focused };
  if (element === undefined) return { failure: fail('NOT_FOUND', `${request.action} needs a target.`) };
  const point = actionPoint(element);
  if (point === undefined) return { failure: fail('NOT_FOUND', 'The element has no visible box to act on.') };
  const tested = hitTest(element, point.x, point.y);
  if (!tested.ok) return { failure: coveredFailure(element, tested.covering) };
  return { element, point };
}

function editableFailure(request: ActRequest, element: Element): Failure | undefined {
  if (request.action === 'type' && !isEditable(element))
    return fail('NOT_EDITABLE', `<${element.localName}> does not take typed text (or is read-only or disabled).`);
  if (request.action === 'select' && !(element instanceof HTMLSelectElement) && !isCustomSelect(element))
    return fail('NOT_EDITABLE', 'Only a <select>, a combobox or a listbox takes select: click the option instead.');
  if (request.action === 'check' && !CHECKABLE_ROLES.has(roleOf(element) ?? ''))
    return fail('NOT_EDITABLE', `A ${roleOf(element) ?? 'generic'} cannot be checked.`);
  return undefined;
}

/**
 * The drop target of a drag, checked as the observation saw it, brought into view with the source still in view,
 * and hit-tested; the element under the drop point (inside the target) receives the drop.
 */
function resolveDrop(request: ActRequest, source: Element): { from: Point; to: Point; on: Element } | Failure {
  if (request.to === undefined) return fail('NOT_FOUND', 'drag needs a drop target.');
  const located = locateTarget({ kind: 'ref', ref: request.to.ref });
  if (!located.found) return fail('STALE_OBSERVATION', 'The drop target is no longer in the page.');
  const now = describeElement(located.element);
  if (now.role !== request.to.role || now.name !== request.to.name)
    return fail(
      'STALE_OBSERVATION',
      `The drop target changed from ${request.to.role} "${request.to.name}" to ${now.role} "${now.name}".`,
    );
  if (actionPoint(located.element) === undefined)
    located.element.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  const to = actionPoint(located.element);
  const from = actionPoint(source);
  if (to === undefined || from === undefined)
    return fail('NOT_FOUND', 'The element and its drop target do not fit in the viewport together.');
  const tested = hitTest(located.element, to.x, to.y);
  if (!tested.ok) return coveredFailure(located.element, tested.covering);
  return { from, to, on: tested.hit };
}

/** Performs the action; a string says why there was nothing to do (select without that option). */
async function perform(
  request: ActRequest,
  element: Element,
  point: Point | undefined,
): Promise<boolean | string | Failure> {
  const at = point ?? { x: 0, y: 0 };
  const pointed = point ? (deepElementFromPoint(at.x, at.y) ?? element) : element;
  const dispatchOn = composedContains(element, pointed) || pointed.closest('label') ? pointed : element;
  switch (request.action) {
    case 'click':
      click(dispatchOn, at.x, at.y);
      return true;
    case 'hover':
      hover(dispatchOn, at.x, at.y);
      return true;
    case 'check': {
      const wanted = request.checked ?? true;
      if ((describeElement(element).checked === true) !== wanted) click(dispatchOn, at.x, at.y);
      return true;
    }
    case 'type':
      typeText(element, request.text ?? '');
      return true;
    case 'select':
      if (!(element instanceof HTMLSelectElement)) return pickOption(element, request.option ?? '', at);
      return selectOption(element, request.option ?? '') || `No option "${request.option ?? ''}".`;
    case 'press':
      pressKey(element, request.key ?? 'Enter');
      return true;
    case 'scroll':
      scrollBy(request.target === undefined ? undefined : element, request.deltaY ?? innerHeight * 0.8);
      return true;
    case 'focus':
      (element as HTMLElement).focus?.();
      return true;
    case 'upload':
      return uploadInto(element, request.file);
    case 'drag': {
      const drop = resolveDrop(request, element);
      if ('code' in drop) return drop;
      await dragAndDrop(dispatchOn, drop.on, drop.from, drop.to);
      return true;
    }
  }
}

/** Check staleness, hit-test, dispatch, wait: the one path every action takes. */
export async function actOnPage(request: ActRequest): Promise<PageActResult> {
  const resolved = resolve(request);
  if ('failure' in resolved) return resolved.failure;
  const { element, point } = resolved;
  const notEditable = editableFailure(request, element);
  if (notEditable !== undefined) return notEditable;
  const hit = hitOf(element);
  const urlBefore = location.href;
  const wait = prepareWait(request.waitFor);
  const performed = await perform(request, element, point);
  if (typeof performed === 'string') return fail('NOT_FOUND', performed, { hit });
  if (typeof performed === 'object') return { ...performed, hit };
  const waited = await wait();
  const outcome = {
    hit,
    urlBefore,
    urlAfter: location.href,
    waited: { condition: waited.condition, met: waited.met, ms: waited.ms },
  };
  if (request.waitFor !== undefined && !waited.met && !waited.unloading)
    return fail(
      'WAIT_TIMEOUT',
      `The action ran, but ${waited.condition} did not happen within ${request.waitFor.timeoutMs} ms.`,
      { ...outcome, trusted: false },
    );
  return {
    type: 'page/act-result',
    ok: true,
    ...outcome,
    trusted: false,
    ...(waited.unloading ? { unloading: true } : {}),
  };
}
