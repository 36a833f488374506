import { checkStaleness } from '@/lib/page-observation/check-staleness';
import type { PageActResult, PageHit, PageRequest } from '@/lib/protocol/page-wire';
import { describeElement } from './accessibility-tree';
import { agentState, elementForRef, refFor } from './agent-state';
import { click, hover, isEditable, pressKey, scrollBy, selectOption, typeText } from './dispatch-input';
import { roleOf } from './element-role';
import { actionPoint, hitTest } from './hit-test';
import { locateTarget } from './locate-target';
import { modalState } from './modal-state';
import { viewportNow } from './observe-page';
import { composedContains, deepElementFromPoint } from './shadow-root';
import { boxOf } from './visibility';
import { uploadInto } from './upload-file';
import { prepareWait } from './wait-for';

type ActRequest = Extract<PageRequest, { type: 'page/act' }>;
type Failure = Extract<PageActResult, { ok: false }>;

const POINTER_ACTIONS = new Set(['click', 'check', 'hover', 'type', 'select']);
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

type Resolved = { element: Element; point?: { x: number; y: number } } | { failure: Failure };

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
  if (!POINTER_ACTIONS.has(request.action)) return { element: focused };
  if (element === undefined) return { failure: fail('NOT_FOUND', `${request.action} needs a target.`) };
  let point = actionPoint(element);
  if (point === undefined) {
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    point = actionPoint(element);
  }
  if (point === undefined) return { failure: fail('NOT_FOUND', 'The element has no visible box to act on.') };
  const tested = hitTest(element, point.x, point.y);
  if (!tested.ok) return { failure: coveredFailure(element, tested.covering) };
  return { element, point };
}

function editableFailure(request: ActRequest, element: Element): Failure | undefined {
  if (request.action === 'type' && !isEditable(element))
    return fail('NOT_EDITABLE', `<${element.localName}> does not take typed text (or is read-only or disabled).`);
  if (request.action === 'select' && !(element instanceof HTMLSelectElement))
    return fail('NOT_EDITABLE', 'Only a <select> takes select: click the option of a custom list instead.');
  if (request.action === 'check' && !CHECKABLE_ROLES.has(roleOf(element) ?? ''))
    return fail('NOT_EDITABLE', `A ${roleOf(element) ?? 'generic'} cannot be checked.`);
  return undefined;
}

/** Performs the action; false when there was nothing to do (select without that option). */
function perform(request: ActRequest, element: Element, point: { x: number; y: number } | undefined): boolean | string {
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
      return selectOption(element as HTMLSelectElement, request.option ?? '') || `No option "${request.option ?? ''}".`;
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
  const performed = perform(request, element, point);
  if (typeof performed === 'string') return fail('NOT_FOUND', performed, { hit });
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
