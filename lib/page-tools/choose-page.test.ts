import { describe, expect, it } from 'vitest';
import { choosePage, originPattern, pageRefusal, siteLabel, siteOrigin, type PageTab } from './choose-page';

const tab = (tabId: number, url: string, extra: Partial<PageTab> = {}): PageTab => ({
  tabId,
  windowId: 1,
  url,
  title: `Tab ${tabId}`,
  active: false,
  ...extra,
});

describe('choosePage', () => {
  it('takes the active tab of the window when the panel is a side panel', () => {
    const choice = choosePage(
      [tab(1, 'https://a.test/x', { lastAccessed: 9 }), tab(2, 'https://b.test:8080/y', { active: true })],
      { windowId: 1 },
    );
    expect(choice).toMatchObject({ ok: true, tab: { tabId: 2 }, origin: 'https://b.test', title: 'Tab 2' });
  });

  it('takes the most recently active web tab when the panel is the active tab', () => {
    const choice = choosePage(
      [
        tab(1, 'https://a.test/', { lastAccessed: 5 }),
        tab(2, 'http://127.0.0.1:4000/form.html', { lastAccessed: 7 }),
        tab(3, 'chrome-extension://id/sidepanel.html', { active: true, lastAccessed: 10 }),
        tab(4, 'chrome://settings', { lastAccessed: 8 }),
      ],
      { windowId: 1, panelTabId: 3 },
    );
    expect(choice).toMatchObject({ ok: true, tab: { tabId: 2 }, origin: 'http://127.0.0.1' });
  });

  it('ignores tabs of other windows', () => {
    const choice = choosePage([tab(1, 'https://a.test/', { active: true, windowId: 2 })], { windowId: 1 });
    expect(choice).toMatchObject({ ok: false, code: 'NO_PAGE' });
  });

  it('refuses extension, browser and store pages with a reason', () => {
    const refused = (url: string) => choosePage([tab(1, url, { active: true })], { windowId: 1 });
    expect(refused('chrome-extension://abc/options.html')).toMatchObject({ ok: false, reason: /extension page/ });
    expect(refused('moz-extension://abc/options.html')).toMatchObject({ ok: false, reason: /extension page/ });
    expect(refused('chrome://settings/')).toMatchObject({ ok: false, reason: /browser page/ });
    expect(refused('about:addons')).toMatchObject({ ok: false, reason: /browser page/ });
    expect(refused('https://chromewebstore.google.com/detail/x')).toMatchObject({ ok: false, reason: /store/ });
    expect(refused('https://chrome.google.com/webstore/category')).toMatchObject({ ok: false, reason: /store/ });
    expect(refused('https://addons.mozilla.org/en-US/firefox/')).toMatchObject({ ok: false, reason: /store/ });
  });
});

describe('origins', () => {
  it('names a site by scheme and host, every port', () => {
    expect(siteOrigin('http://127.0.0.1:5173/a?b')).toBe('http://127.0.0.1');
    expect(originPattern('http://127.0.0.1')).toBe('http://127.0.0.1/*');
    expect(siteOrigin('file:///home/me/page.html')).toBe('file://');
    expect(originPattern('file://')).toBe('file:///*');
    expect(siteLabel('https://example.com')).toBe('example.com');
    expect(pageRefusal('https://example.com/')).toBeUndefined();
  });
});
