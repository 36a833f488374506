import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { sessionExport, sessionExportFileName } from './session-export';

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
      version: 2,
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

describe('sessionExportFileName', () => {
  it('makes a readable file name', () => {
    expect(sessionExportFileName('Make the particles  faster!', new Date('2025-01-31T10:00:00Z'))).toBe(
      'splitbrain-make-the-particles-faster-2025-01-31.zip',
    );
    expect(sessionExportFileName('???', new Date('2025-01-31T10:00:00Z'))).toBe(
      'splitbrain-conversation-2025-01-31.zip',
    );
  });
});
