import { describe, expect, it } from 'vitest';
import { ACTION_EVIDENCE_LIMITS, ActionEvidence } from './action-evidence';
import { newPageFence, splitByFence } from './page-fence';

const MARKER = 'fedcba9876543210fedcba9876543210';
const fence = newPageFence(() => MARKER);

function inside(output: ReturnType<ActionEvidence['output']>): string {
  return splitByFence(String(output?.details), MARKER).inside.join('');
}

describe('ActionEvidence', () => {
  it('is null when nothing happened that it records (a navigation to the same address included)', () => {
    const evidence = new ActionEvidence('https://a.example/');
    evidence.note({ kind: 'navigated', url: 'https://a.example/' });
    evidence.addPage({ consoleErrors: [], dialogs: [], droppedConsoleErrors: 0, droppedDialogs: 0 });
    expect(evidence.output(fence)).toBeNull();
  });

  it('lists at most its limit of each kind, counts the rest, and cuts long lines', () => {
    const evidence = new ActionEvidence('https://a.example/');
    for (let index = 0; index < 50; index++)
      evidence.note({
        kind: 'request-failed',
        method: 'GET',
        url: `https://a.example/item/${index}?session=secret`,
        resourceType: 'image',
        error: 'net::ERR_CONNECTION_REFUSED',
      });
    evidence.note({ kind: 'tab-opened', tabId: 9, url: '' });
    evidence.note({ kind: 'tab-opened', tabId: 9, url: `https://b.example/${'x'.repeat(1000)}?q=1` });
    const output = evidence.output(fence);
    expect(output).toMatchObject({
      failedRequests: 50,
      newTabs: 1,
      dropped: 50 - ACTION_EVIDENCE_LIMITS.failedRequests,
    });
    const text = inside(output);
    expect(text.match(/^- \[GET\]/gm)).toHaveLength(ACTION_EVIDENCE_LIMITS.failedRequests);
    expect(text).toContain('- … and 40 more');
    expect(text).not.toContain('secret');
    expect(text).toContain('=> net::ERR_CONNECTION_REFUSED (image)');
    expect(text).toContain('- tab 9: https://b.example/xxx');
    expect(text).not.toContain('no address yet');
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(402);
  });

  it("names a child frame's console errors by the frame's address and follows navigations from one to the next", () => {
    const evidence = new ActionEvidence('https://a.example/one');
    evidence.note({ kind: 'navigated', url: 'https://a.example/two' });
    evidence.note({ kind: 'navigated', url: 'https://a.example/three' });
    evidence.addPage(
      {
        consoleErrors: [{ kind: 'rejection', message: 'TypeError: x is undefined' }],
        dialogs: [],
        droppedConsoleErrors: 0,
        droppedDialogs: 2,
      },
      'frame https://c.example/widget',
    );
    const output = evidence.output(fence);
    expect(output).toMatchObject({ navigations: 2, consoleErrors: 1, dialogs: 2, dropped: 2 });
    const text = inside(output);
    expect(text).toContain(
      '- https://a.example/one → https://a.example/two\n- https://a.example/two → https://a.example/three',
    );
    expect(text).toContain('[unhandled rejection] TypeError: x is undefined [frame https://c.example/widget]');
  });
});
