import { describe, expect, it } from 'vitest';
import type { PageExpectation } from '../protocol/page-wire';
import { checkStaleness, type CurrentPageState } from './check-staleness';

const viewport = { width: 800, height: 600, scrollX: 0, scrollY: 120, devicePixelRatio: 2, visualScale: 1 };
const expected: PageExpectation = {
  documentId: 'doc-1',
  modal: { open: false },
  viewport,
  ref: { role: 'button', name: 'Buy', checked: undefined },
};
const element = { attached: true, role: 'button', name: 'Buy' };
const current = (changes: Partial<CurrentPageState> = {}): CurrentPageState => ({
  documentId: 'doc-1',
  modal: { open: false },
  viewport,
  element,
  ...changes,
});

describe('checkStaleness', () => {
  it('another document is stale for every kind of target', () => {
    for (const kind of ['ref', 'selector', 'role', 'point', 'none'] as const)
      expect(checkStaleness(kind, expected, current({ documentId: 'doc-2' })).stale).toBe(true);
  });

  it('a modal opened since is stale; the same modal, or one that closed, is not', () => {
    expect(checkStaleness('ref', expected, current({ modal: { open: true, ref: 'e9' } })).stale).toBe(true);
    const withModal = { ...expected, modal: { open: true, ref: 'e9' } };
    expect(checkStaleness('ref', withModal, current({ modal: { open: true, ref: 'e9' } })).stale).toBe(false);
    expect(checkStaleness('ref', withModal, current({ modal: { open: true, ref: 'e10' } })).stale).toBe(true);
    expect(checkStaleness('ref', withModal, current()).stale).toBe(false);
  });

  it('a ref whose element left the page or changed role, name or checked state is stale', () => {
    expect(checkStaleness('ref', expected, current({ element: { ...element, attached: false } })).stale).toBe(true);
    expect(checkStaleness('ref', expected, current({ element: undefined })).stale).toBe(true);
    expect(checkStaleness('ref', expected, current({ element: { ...element, name: 'Cancel' } }))).toEqual({
      stale: true,
      reason: 'The element changed from button "Buy" to button "Cancel".',
    });
    expect(checkStaleness('ref', expected, current({ element: { ...element, role: 'link' } })).stale).toBe(true);
    expect(checkStaleness('ref', expected, current({ element: { ...element, checked: true } })).stale).toBe(true);
  });

  it('a field whose input type changed since (a text field turned into a password field) is stale', () => {
    const field: PageExpectation = { ...expected, ref: { role: 'textbox', name: 'Code', inputType: 'text' } };
    const now = { attached: true, role: 'textbox', name: 'Code' };
    expect(checkStaleness('ref', field, current({ element: { ...now, inputType: 'password' } }))).toEqual({
      stale: true,
      reason: "The field's type changed from text to password.",
    });
    expect(checkStaleness('ref', field, current({ element: { ...now, inputType: 'text' } })).stale).toBe(false);
  });

  it('changes elsewhere are not stale: scrolling and resizing do not touch a ref target', () => {
    const scrolled = current({ viewport: { ...viewport, scrollY: 900, width: 1024 } });
    expect(checkStaleness('ref', expected, scrolled)).toEqual({ stale: false });
    expect(checkStaleness('selector', expected, scrolled)).toEqual({ stale: false });
  });

  it('for points, any viewport, scroll, device-pixel-ratio or zoom change is stale', () => {
    expect(checkStaleness('point', expected, current())).toEqual({ stale: false });
    for (const change of [
      { width: 801 },
      { height: 500 },
      { scrollX: 3 },
      { scrollY: 121 },
      { devicePixelRatio: 1.5 },
      { visualScale: 1.25 },
    ]) {
      const verdict = checkStaleness('point', expected, current({ viewport: { ...viewport, ...change } }));
      expect(verdict.stale, JSON.stringify(change)).toBe(true);
    }
  });
});
