import { describe, expect, it } from 'vitest';
import { DELEGATION_EVENT_TYPES, isClickable, type ClickSignals } from './is-clickable';

const plain: ClickSignals = {
  tag: 'span',
  onclickAttribute: false,
  cursor: 'auto',
  parentCursor: 'auto',
  hasTabIndexAttribute: false,
  tabIndex: -1,
  labelsControl: false,
};

describe('isClickable', () => {
  it('is false for an element with no signal', () => {
    expect(isClickable(plain)).toBe(false);
  });

  it('counts its own click listener, an onclick attribute and a tabindex of 0 or more', () => {
    expect(isClickable({ ...plain, listenedTypes: 1 })).toBe(true);
    expect(isClickable({ ...plain, onclickAttribute: true })).toBe(true);
    expect(isClickable({ ...plain, hasTabIndexAttribute: true, tabIndex: 0 })).toBe(true);
    expect(isClickable({ ...plain, hasTabIndexAttribute: true, tabIndex: -1 })).toBe(false);
  });

  it('counts cursor: pointer only where the parent has another cursor (not inherited from a clickable ancestor)', () => {
    expect(isClickable({ ...plain, cursor: 'pointer' })).toBe(true);
    expect(isClickable({ ...plain, cursor: 'pointer', parentCursor: 'pointer' })).toBe(false);
    expect(isClickable({ ...plain, cursor: 'default', parentCursor: 'pointer' })).toBe(false);
  });

  it('does not count a delegation root that listens for every event type', () => {
    expect(isClickable({ ...plain, listenedTypes: DELEGATION_EVENT_TYPES })).toBe(true);
    expect(isClickable({ ...plain, listenedTypes: DELEGATION_EVENT_TYPES + 1 })).toBe(false);
    expect(isClickable({ ...plain, listenedTypes: 80, cursor: 'pointer' })).toBe(true);
  });

  it('never marks the body or the root, nor a label whose control has its own ref', () => {
    expect(isClickable({ ...plain, tag: 'body', listenedTypes: 1, cursor: 'pointer' })).toBe(false);
    expect(isClickable({ ...plain, tag: 'html', onclickAttribute: true })).toBe(false);
    expect(isClickable({ ...plain, tag: 'label', labelsControl: true, cursor: 'pointer' })).toBe(false);
    expect(isClickable({ ...plain, tag: 'label', cursor: 'pointer' })).toBe(true);
  });
});
