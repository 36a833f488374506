import { describe, expect, it } from 'vitest';
import type { PageChoice } from './choose-page';
import { pageGate, type PageGateFacts } from './page-approval';
import type { ObservationRecord } from './page-observation';

const page: PageChoice = {
  ok: true,
  tab: { tabId: 7, windowId: 1, url: 'http://127.0.0.1:4000/form.html', title: 'Form', active: true },
  origin: 'http://127.0.0.1',
  title: 'Form',
};
const box = { x: 0, y: 0, width: 10, height: 10 };
const observation: ObservationRecord = {
  observationId: 'o1',
  tabId: 7,
  frameId: 0,
  documentId: 'd1',
  url: 'http://127.0.0.1:4000/form.html',
  origin: 'http://127.0.0.1',
  title: 'Form',
  viewport: { width: 800, height: 600, scrollX: 0, scrollY: 0, devicePixelRatio: 1, zoom: 1 },
  capturedAt: 1,
  expected: {
    modal: { open: false },
    viewport: { width: 800, height: 600, scrollX: 0, scrollY: 0, devicePixelRatio: 1, visualScale: 1 },
  },
  frames: {},
  refs: {
    e1: { role: 'button', name: 'Submit', box, frameId: 0 },
    e2: { role: 'textbox', name: 'Email', box, frameId: 0 },
    e3: { role: 'textbox', name: 'Password', box, frameId: 0, sensitive: 'password' },
    e4: { role: 'button', name: 'Choose file', box, frameId: 0, sensitive: 'file' },
  },
};
const facts = (extra: Partial<PageGateFacts> = {}): PageGateFacts => ({
  page,
  access: true,
  mode: 'ask',
  observation,
  ...extra,
});

describe('pageGate', () => {
  it('asks for site access first, naming the site', () => {
    expect(pageGate('observePage', {}, facts({ access: false }))).toEqual({
      required: true,
      siteOrigin: 'http://127.0.0.1',
      summary: 'Let Splitbrain read and act on 127.0.0.1?',
      always: true,
    });
    const act = pageGate('actOnPage', { observationId: 'o1', action: 'click', ref: 'e1' }, facts({ access: false }));
    expect(act).toMatchObject({
      required: true,
      siteOrigin: 'http://127.0.0.1',
      summary: /Then: Click button "Submit"/,
    });
  });

  it('observes without asking once the site is granted', () => {
    expect(pageGate('observePage', { screenshot: true }, facts())).toEqual({ required: false });
  });

  it('shows what will be clicked or typed when the site asks before acting', () => {
    expect(pageGate('actOnPage', { observationId: 'o1', action: 'click', ref: 'e1' }, facts())).toEqual({
      required: true,
      summary: 'Click button "Submit" on 127.0.0.1.',
      always: false,
    });
    expect(
      pageGate('actOnPage', { observationId: 'o1', action: 'type', ref: 'e2', text: 'a@b.c' }, facts()),
    ).toMatchObject({ summary: 'Type "a@b.c" into textbox "Email" on 127.0.0.1.' });
    expect(
      pageGate('actOnPage', { observationId: 'o1', action: 'drag', ref: 'e2', toRef: 'e1' }, facts()),
    ).toMatchObject({ summary: 'Drag textbox "Email" onto button "Submit" on 127.0.0.1.', always: false });
  });

  it('acts without asking on a site set so, except where it always asks', () => {
    const allow = facts({ mode: 'allow' });
    expect(pageGate('actOnPage', { observationId: 'o1', action: 'click', ref: 'e1' }, allow)).toEqual({
      required: false,
    });
    const always = (input: Record<string, string | number>) => pageGate('actOnPage', input, allow);
    expect(always({ observationId: 'o1', action: 'type', ref: 'e3', text: 'hunter2' })).toMatchObject({
      required: true,
      always: true,
      summary: /password field/,
    });
    expect(always({ observationId: 'o1', action: 'click', ref: 'e4' })).toMatchObject({ always: true });
    expect(always({ observationId: 'o1', action: 'press', ref: 'e2', key: 'Control+V' })).toMatchObject({
      always: true,
      summary: /clipboard/,
    });
    expect(always({ observationId: 'o1', action: 'type', selector: '#x', text: 'a' })).toMatchObject({
      always: true,
    });
    expect(always({ observationId: 'o1', action: 'click', ref: 'e99' })).toEqual({ required: false });
  });

  it('always asks before another origin, and before going back', () => {
    const allow = facts({ mode: 'allow' });
    expect(pageGate('navigatePage', { url: 'http://127.0.0.1:4000/other.html' }, allow)).toEqual({ required: false });
    expect(pageGate('navigatePage', { url: 'https://evil.test/' }, allow)).toMatchObject({
      required: true,
      always: true,
      summary: /another site/,
    });
    expect(pageGate('navigatePage', { url: 'javascript:alert(1)' }, allow)).toMatchObject({ always: true });
    expect(pageGate('pageBack', {}, allow)).toMatchObject({ required: true, always: true });
  });

  it('lets a call on no page through to fail with its reason', () => {
    expect(pageGate('observePage', {}, facts({ page: { ok: false, code: 'NO_PAGE', reason: 'No web page' } }))).toEqual(
      { required: false },
    );
  });
});
