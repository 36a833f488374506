import { describe, expect, it } from 'vitest';
import type { PageObservationData } from '../protocol/page-wire';
import { splitFrameRef, stitchFrames } from './stitch-frames';

function observation(
  url: string,
  snapshot: string,
  childFrames: PageObservationData['childFrames'] = [],
): PageObservationData {
  return {
    documentId: url,
    url,
    title: '',
    capturedAt: 0,
    viewport: { width: 800, height: 600, scrollX: 0, scrollY: 0, devicePixelRatio: 1, visualScale: 1 },
    snapshot,
    snapshotTokens: 0,
    truncated: null,
    refs: {},
    modal: { open: false },
    events: [],
    pageTools: [],
    childFrames,
    hiddenTextRefs: [],
    pageToolsBridge: false,
  };
}

const box = (x: number, y: number) => ({ x, y, width: 300, height: 100 });

describe('stitchFrames', () => {
  it('nests each frame under its iframe line with refs prefixed by frame', () => {
    const top = observation(
      'http://a/',
      '- heading "Frames" [level=1]\n- iframe "Same" [ref=e1]\n- iframe "Cross" [ref=e2]',
      [
        { ref: 'e1', src: 'http://a/child', name: '', contentBox: box(10, 20) },
        { ref: 'e2', src: 'http://b/child', name: '', contentBox: box(10, 200) },
      ],
    );
    const stitched = stitchFrames([
      { frameId: 0, parentFrameId: -1, observation: top },
      { frameId: 7, parentFrameId: 0, observation: observation('http://b/child', '- button "Cross inner" [ref=e1]') },
      {
        frameId: 5,
        parentFrameId: 0,
        observation: observation('http://a/child', '- button "Same inner" [ref=e1]\n- text: hi'),
      },
    ]);
    expect(stitched.snapshot).toBe(
      [
        '- heading "Frames" [level=1]',
        '- iframe "Same" [ref=e1]:',
        '  - button "Same inner" [ref=f1e1]',
        '  - text: hi',
        '- iframe "Cross" [ref=e2]:',
        '  - button "Cross inner" [ref=f2e1]',
      ].join('\n'),
    );
    expect(stitched.prefixes).toEqual({ f1: 5, f2: 7 });
    expect(stitched.offsets[7]).toEqual({ x: 10, y: 200 });
  });

  it('matches by frameId when the browser gave one, even when URLs repeat', () => {
    const top = observation('http://a/', '- iframe [ref=e1]\n- iframe [ref=e2]', [
      { ref: 'e1', src: 'http://a/same', name: '', contentBox: box(0, 0), frameId: 9 },
      { ref: 'e2', src: 'http://a/same', name: '', contentBox: box(0, 100), frameId: 8 },
    ]);
    const stitched = stitchFrames([
      { frameId: 0, parentFrameId: -1, observation: top },
      { frameId: 8, parentFrameId: 0, observation: observation('http://a/same', '- text: eight') },
      { frameId: 9, parentFrameId: 0, observation: observation('http://a/same', '- text: nine') },
    ]);
    expect(stitched.snapshot).toBe('- iframe [ref=e1]:\n  - text: nine\n- iframe [ref=e2]:\n  - text: eight');
  });

  it('splits frame refs', () => {
    expect(splitFrameRef('f12e3')).toEqual({ prefix: 'f12', ref: 'e3' });
    expect(splitFrameRef('e3')).toEqual({ prefix: '', ref: 'e3' });
    expect(splitFrameRef('x3')).toBeUndefined();
  });
});
