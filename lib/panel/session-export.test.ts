import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import v1Fixture from '../protocol/fixtures/v1-rows.json';
import { readSessionExport, sessionExport, sessionExportFileName } from './session-export';

const KEY = 'sk-test-0123456789abcdef';
const events: AgentEvent[] = [
  {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    type: 'session/created',
    sessionId: 's',
    seq: 1,
    time: 1,
    durable: true,
    data: { title: 'Hello' },
  },
  {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    type: 'turn/started',
    sessionId: 's',
    turnId: 't',
    seq: 2,
    time: 2,
    durable: true,
    data: { userItemId: 'u', text: `my key is ${KEY}, ok?` },
  },
];

describe('sessionExport', () => {
  it('holds the events and session, and no secret anywhere', () => {
    const exported = sessionExport(
      { sessionId: 's', title: 'Hello' },
      events,
      [KEY, ''],
      new Date('2025-01-31T10:00:00Z'),
    );
    expect(exported).toMatchObject({
      format: 'splitbrain-session',
      version: 1,
      exportedAt: '2025-01-31T10:00:00.000Z',
      session: { sessionId: 's', title: 'Hello' },
    });
    expect(exported.events).toHaveLength(2);
    const json = JSON.stringify(exported);
    expect(json).not.toContain(KEY);
    expect(json).toContain('my key is [redacted], ok?');
  });

  it('ignores secrets too short to redact safely', () => {
    const exported = sessionExport({ sessionId: 's', title: 'Hello' }, events, ['o'], new Date(0));
    expect(exported.session.title).toBe('Hello');
  });
});

describe('readSessionExport', () => {
  const v1Export = {
    format: 'splitbrain-session',
    version: 1,
    exportedAt: '2025-01-31T10:00:00.000Z',
    session: { sessionId: 'fixture-session', title: 'Faster blue particles' },
    events: v1Fixture.events.map((row) => row.event),
  };

  it('reads an export of version 1 events as current events, unchanged but for the version', () => {
    const reading = readSessionExport(structuredClone(v1Export));
    if (!reading.ok) throw new Error(reading.error);
    expect(reading.document.session).toEqual(v1Export.session);
    expect(reading.document.events).toEqual(
      v1Export.events.map((event) => ({ ...event, schemaVersion: AGENT_EVENT_SCHEMA_VERSION })),
    );
  });

  it('reads back what sessionExport wrote', () => {
    const exported = sessionExport({ sessionId: 's', title: 'Hello' }, events, [], new Date(0));
    expect(readSessionExport(JSON.parse(JSON.stringify(exported)))).toEqual({ ok: true, document: exported });
  });

  it('refuses a file that is no session export, or holds an event newer than this code', () => {
    expect(readSessionExport({ format: 'other' })).toMatchObject({ ok: false });
    const newer = structuredClone(v1Export);
    newer.events[3] = { ...newer.events[3]!, schemaVersion: AGENT_EVENT_SCHEMA_VERSION + 1 } as never;
    expect(readSessionExport(newer)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Event 3 .*newer version of Splitbrain/),
    });
  });
});

describe('sessionExportFileName', () => {
  it('makes a readable file name', () => {
    expect(sessionExportFileName('Make the particles  faster!', new Date('2025-01-31T10:00:00Z'))).toBe(
      'splitbrain-make-the-particles-faster-2025-01-31.json',
    );
    expect(sessionExportFileName('???', new Date('2025-01-31T10:00:00Z'))).toBe(
      'splitbrain-conversation-2025-01-31.json',
    );
  });
});
