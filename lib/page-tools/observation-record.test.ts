import { describe, expect, it } from 'vitest';
import type { PageObservationData, PageRefInfo } from '../protocol/page-wire';
import { observationRecord } from './observation-record';

const box = { x: 10, y: 10, width: 100, height: 20 };
const viewport = { width: 800, height: 600, scrollX: 0, scrollY: 0, devicePixelRatio: 1, visualScale: 1 };

function field(name: string, inputType?: string): PageRefInfo {
  return { role: 'textbox', name, tag: 'input', box, inViewport: true, ...(inputType ? { inputType } : {}) };
}

function recordOf(refs: Record<string, PageRefInfo>) {
  const observation: PageObservationData = {
    documentId: 'doc-1',
    url: 'https://shop.example/login',
    title: 'Log in',
    capturedAt: 1,
    viewport,
    snapshot: '',
    snapshotTokens: 0,
    truncated: null,
    refs,
    modal: { open: false },
    events: [],
    pageTools: [],
    childFrames: [],
    hiddenTextRefs: [],
    pageToolsBridge: false,
  };
  const page = {
    ok: true as const,
    tab: { tabId: 7, windowId: 1, active: true },
    origin: 'https://shop.example',
    title: 'Log in',
  };
  return observationRecord('observation-1', page, [{ frameId: 0, parentFrameId: -1, observation }], {}, 1, undefined);
}

describe('observationRecord', () => {
  it('marks a password field by its input type whatever it is called, and keeps the type for the staleness check', () => {
    const record = recordOf({
      e1: field('Secret', 'password'),
      e2: field('Password hint', 'text'),
      e3: field('Attachment', 'file'),
      e4: field('Your PIN'),
    });
    expect(record.refs.e1).toMatchObject({ sensitive: 'password', inputType: 'password' });
    expect(record.refs.e2.sensitive).toBeUndefined();
    expect(record.refs.e3.sensitive).toBe('file');
    // Without a reported type (the page agent reports one for every input), by its name.
    expect(record.refs.e4.sensitive).toBe('password');
  });
});
