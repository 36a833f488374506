import { describe, expect, it } from 'vitest';
import type { PageRefInfo } from '../protocol/page-wire';
import { observedRecord } from '../../tests/support/page-observation-data';
import { actRequest, actTarget } from './act-request';

const field: PageRefInfo = {
  role: 'textbox',
  name: 'Email',
  tag: 'input',
  box: { x: 10, y: 10, width: 100, height: 20 },
  inViewport: true,
  inputType: 'email',
};

const record = () => observedRecord({ e1: field });

const zoomOne = async () => 1;
const act = (fields: Record<string, unknown>) =>
  ({ observationId: 'observation-1', action: 'click', ...fields }) as Parameters<typeof actTarget>[0];

describe('actTarget', () => {
  it('prefers the ref, then the selector, then role and name', async () => {
    const observed = record();
    expect(await actTarget(act({ ref: 'e1', selector: '#x', role: 'button' }), observed, zoomOne)).toEqual({
      ok: true,
      target: { kind: 'ref', ref: 'e1' },
      frameId: 0,
    });
    expect(await actTarget(act({ selector: '#x', role: 'button' }), observed, zoomOne)).toMatchObject({
      target: { kind: 'selector', selector: '#x' },
    });
    expect(await actTarget(act({ ref: 'e9' }), observed, zoomOne)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await actTarget(act({}), observed, zoomOne)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('takes a point only in a named space, at the zoom of the observation', async () => {
    const observed = record();
    expect(await actTarget(act({ x: 20, y: 20 }), observed, zoomOne)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(
      await actTarget(act({ x: 20, y: 20, coordinateSpace: 'viewport-css' }), observed, async () => 1.5),
    ).toMatchObject({ code: 'STALE_OBSERVATION' });
    expect(await actTarget(act({ x: 20, y: 20, coordinateSpace: 'screenshot-px' }), observed, zoomOne)).toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('actRequest', () => {
  it('carries what the observation expected of the frame and of the element under the point', async () => {
    const observed = record();
    const target = await actTarget(act({ x: 20, y: 20, coordinateSpace: 'viewport-css' }), observed, zoomOne);
    if (!target.ok) throw new Error(target.reason);
    const built = actRequest(act({ x: 20, y: 20, coordinateSpace: 'viewport-css', text: 'a' }), observed, target);
    expect(built).toMatchObject({
      ok: true,
      request: {
        type: 'page/act',
        action: 'click',
        target: { kind: 'point', x: 20, y: 20 },
        expected: { documentId: 'doc-1', pointRef: 'e1', ref: { role: 'textbox', name: 'Email', inputType: 'email' } },
        text: 'a',
      },
    });
  });

  it('refuses a wait that cannot be checked', async () => {
    const observed = record();
    const input = act({ ref: 'e1', waitFor: { condition: 'url-matches' } });
    const target = await actTarget(input, observed, zoomOne);
    if (!target.ok) throw new Error(target.reason);
    expect(actRequest(input, observed, target)).toEqual({ ok: false, reason: 'waitFor "url-matches" needs a value.' });
  });

  it("carries a drag's drop target with what the observation said of it, in the same frame only", async () => {
    const zone: PageRefInfo = { role: 'region', name: 'Done', tag: 'section', box: field.box, inViewport: true };
    const observed = observedRecord({ e1: field, e2: zone });
    const drag = act({ action: 'drag', ref: 'e1', toRef: 'e2' });
    const target = await actTarget(drag, observed, zoomOne);
    if (!target.ok) throw new Error(target.reason);
    expect(actRequest(drag, observed, target)).toMatchObject({
      ok: true,
      request: { action: 'drag', target: { kind: 'ref', ref: 'e1' }, to: { ref: 'e2', role: 'region', name: 'Done' } },
    });
    expect(actRequest(act({ action: 'drag', ref: 'e1' }), observed, target)).toEqual({
      ok: false,
      reason: 'drag needs `toRef`: the ref to drop on.',
    });
    expect(actRequest(act({ action: 'drag', ref: 'e1', toRef: 'e7' }), observed, target)).toEqual({
      ok: false,
      reason: 'No ref "e7" in observation observation-1.',
    });
    observed.refs.e2 = { ...observed.refs.e2, frameId: 3 };
    expect(actRequest(drag, observed, target)).toEqual({ ok: false, reason: 'A drag starts and ends in one frame.' });
  });
});
