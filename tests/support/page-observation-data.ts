import type { PageObservationData } from '../../lib/protocol/page-wire';
import { observationRecord } from '../../lib/page-tools/observation-record';

/** What the page agent reports of a page with nothing open, no events and no page tools, with these fields. */
export function pageObservationData(fields: Partial<PageObservationData> = {}): PageObservationData {
  return {
    documentId: 'doc-1',
    url: 'https://shop.example/login',
    title: 'Log in',
    capturedAt: 1,
    viewport: { width: 800, height: 600, scrollX: 0, scrollY: 0, devicePixelRatio: 1, visualScale: 1 },
    snapshot: '',
    snapshotTokens: 0,
    truncated: null,
    refs: {},
    modal: { open: false },
    events: [],
    pageTools: [],
    childFrames: [],
    hiddenTextRefs: [],
    pageToolsBridge: false,
    ...fields,
  };
}

/** The runtime's record of one observation of that page in tab 7, its top frame only. */
export function observedRecord(refs: PageObservationData['refs']) {
  const page = {
    ok: true as const,
    tab: { tabId: 7, windowId: 1, active: true },
    origin: 'https://shop.example',
    title: 'Log in',
  };
  const observation = pageObservationData({ refs });
  return observationRecord('observation-1', page, [{ frameId: 0, parentFrameId: -1, observation }], {}, 1, undefined);
}
