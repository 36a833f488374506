import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION } from './agent-event';
import v1Fixture from './fixtures/v1-rows.json';
import { readSessionExport, readSessionExportText } from './session-export-document';

const v1Export = {
  format: 'splitbrain-session',
  version: 1,
  exportedAt: '2025-01-31T10:00:00.000Z',
  session: { sessionId: 'fixture-session', title: 'Faster blue particles' },
  events: v1Fixture.events.map((row) => row.event),
};

describe('readSessionExport', () => {
  it('reads an export of version 1 events as current events, unchanged but for the version', () => {
    const reading = readSessionExport(structuredClone(v1Export));
    if (!reading.ok) throw new Error(reading.error);
    expect(reading.document.session).toEqual(v1Export.session);
    expect(reading.document.events).toEqual(
      v1Export.events.map((event) => ({ ...event, schemaVersion: AGENT_EVENT_SCHEMA_VERSION })),
    );
  });

  it('refuses a file that is no session export, of an unknown version, or holding an event newer than this code', () => {
    expect(readSessionExport({ format: 'other' })).toMatchObject({ ok: false });
    expect(readSessionExport({ ...v1Export, version: 3 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Not a Splitbrain conversation export: .*\(version\)/),
    });
    const newer = structuredClone(v1Export);
    newer.events[3] = { ...newer.events[3]!, schemaVersion: AGENT_EVENT_SCHEMA_VERSION + 1 } as never;
    expect(readSessionExport(newer)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Event 3 .*newer version of Splitbrain/),
    });
  });

  it('refuses an event that fails its schema, naming it', () => {
    const broken = structuredClone(v1Export);
    (broken.events[1] as { turnId?: unknown }).turnId = 42;
    expect(readSessionExport(broken)).toMatchObject({ ok: false, error: expect.stringMatching(/^Event 1 /) });
  });
});

describe('readSessionExportText', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  it('reads the UTF-8 JSON of an export', () => {
    expect(readSessionExportText(encode(JSON.stringify(v1Export)))).toMatchObject({ ok: true });
  });

  it('says when the bytes are not text or not JSON', () => {
    expect(readSessionExportText(new Uint8Array([0xff, 0xfe, 0x00]))).toMatchObject({ ok: false, notJson: true });
    expect(readSessionExportText(encode('{"format":'))).toMatchObject({
      ok: false,
      notJson: true,
      error: expect.stringMatching(/^The conversation is not JSON/),
    });
  });

  it('keeps hostile keys and strings inert: a __proto__ key is dropped, markup stays text', () => {
    const hostile = `{"__proto__":{"polluted":true},${JSON.stringify(v1Export).slice(1)}`;
    const withMarkup = hostile.replace('Faster blue particles', '<img src=x onerror=alert(1)>');
    const reading = readSessionExportText(encode(withMarkup));
    if (!reading.ok) throw new Error(reading.error);
    expect(reading.document.session.title).toBe('<img src=x onerror=alert(1)>');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.hasOwn(reading.document, '__proto__')).toBe(false);
  });
});
