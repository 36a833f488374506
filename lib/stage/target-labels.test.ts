import { describe, expect, it } from 'vitest';
import { targetGrantsText, targetTitle } from './target-labels';

describe("the stage bar's labels of a target", () => {
  it('titles a built-in target by its title', () => {
    expect(targetTitle('Counter', { preview: false })).toBe('Counter');
  });

  it("titles an authored target by its version, and says when it is an older one's preview", () => {
    expect(targetTitle('Timer', { artifact: { version: 3 }, preview: false })).toBe(
      'Timer · v3 · made in this conversation',
    );
    expect(targetTitle('Timer', { artifact: { version: 2 }, preview: true })).toBe(
      'Timer · v2 (superseded) · made in this conversation',
    );
  });

  it('titles an MCP App by its server', () => {
    expect(targetTitle('Chart', { preview: false, app: { serverName: 'charts' } })).toBe('Chart · MCP App of charts');
  });

  it("lists an authored target's grants, with their origins", () => {
    const granted = [
      { permission: 'network' as const, origin: 'https://api.test' },
      { permission: 'download' as const },
    ];
    expect(targetGrantsText({ granted }, [])).toBe('Granted: network https://api.test, download');
  });

  it('lists the origins an app was admitted to, and nothing when there are none', () => {
    expect(targetGrantsText(undefined, ['https://api.test', 'https://cdn.test'])).toBe(
      'Granted: network https://api.test, https://cdn.test',
    );
    expect(targetGrantsText({ granted: [] }, [])).toBe('');
    expect(targetGrantsText(undefined, [])).toBe('');
  });
});
