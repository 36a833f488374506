import { describe, expect, it } from 'vitest';
import { replayLog } from '../state/reduce-events';
import { meaningfulState } from '../../tests/support/meaningful-state';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from './agent-event';
import { EVENT_MIGRATIONS, readStoredEvent } from './event-migrations';
import v1Fixture from './fixtures/v1-rows.json';
import v7Fixture from './fixtures/v7-rows.json';

/** Every durable event type of schema version 1: the fixture must hold each (it was recorded once, never regenerated). */
const V1_DURABLE_TYPES = [
  'approval/decided',
  'approval/expired',
  'approval/requested',
  'artifact/referenced',
  'ask/answered',
  'ask/expired',
  'ask/requested',
  'assistant/completed',
  'assistant/interrupted',
  'blob/referenced',
  'command/state',
  'notification',
  'reasoning/completed',
  'reasoning/interrupted',
  'session/created',
  'session/renamed',
  'step/completed',
  'step/started',
  'stream/error',
  'tool/completed',
  'tool/denied',
  'tool/failed',
  'tool/requested',
  'tool/started',
  'tool/unknown',
  'turn/aborted',
  'turn/completed',
  'turn/interrupted',
  'turn/started',
];

const storedV1 = v1Fixture.events.map((row) => row.event as Record<string, unknown>);

function readAll(events: unknown[]): AgentEvent[] {
  return events.map((event) => {
    const reading = readStoredEvent(event);
    if (!reading.ok) throw new Error(reading.reason);
    return reading.event;
  });
}

describe('the frozen version 1 rows', () => {
  it('are 61 rows of schema version 1 holding every durable event type of that version', () => {
    expect(storedV1).toHaveLength(61);
    expect(storedV1.every((event) => event.schemaVersion === 1)).toBe(true);
    expect([...new Set(storedV1.map((event) => event.type))].sort()).toEqual(V1_DURABLE_TYPES);
  });

  it('read back unchanged but for the version, each reported as upgraded from 1', () => {
    const readings = storedV1.map((event) => readStoredEvent(event));
    expect(readings.every((reading) => reading.ok && reading.upgradedFrom === 1)).toBe(true);
    expect(readAll(storedV1)).toEqual(
      storedV1.map((event) => ({ ...event, schemaVersion: AGENT_EVENT_SCHEMA_VERSION })),
    );
  });

  it('reduce to the client state they reduced to as version 1', () => {
    const migrated = replayLog('fixture-session', readAll(storedV1));
    expect(meaningfulState(migrated)).toEqual(
      meaningfulState(replayLog('fixture-session', storedV1 as unknown as AgentEvent[])),
    );
    expect(migrated.title).toBe('Faster blue particles');
    expect(migrated.lastSeq).toBe(61);
    expect(migrated.turnOrder.map((turnId) => migrated.turns[turnId]?.status)).toEqual([
      'completed',
      'aborted',
      'interrupted',
      'completed',
    ]);
    expect(Object.values(migrated.toolCalls).map((call) => `${call.toolCallId}:${call.status}`)).toEqual([
      'call-1:done',
      'call-2:failed',
      'call-3:done',
      'call-4:denied',
      'call-5:done',
      'call-6:failed',
      'call-7:denied',
      'call-8:unknown',
    ]);
  });
});

describe('version 4 rows', () => {
  const v4 = (turnId: string, seq: number) => ({
    schemaVersion: 4,
    sessionId: 'fixture-session',
    seq,
    time: seq,
    durable: true,
    type: 'turn/started',
    turnId,
    data: { userItemId: `user-${turnId}`, text: turnId },
  });

  it('read as one branch, each turn after the one before it, and a version-5 edit branches off them', () => {
    const events = readAll([v4('first', 1), v4('second', 2)]);
    expect(events.every((event) => event.schemaVersion === AGENT_EVENT_SCHEMA_VERSION)).toBe(true);
    const edit = {
      ...v4('edit', 3),
      schemaVersion: 5,
      data: { userItemId: 'user-edit', text: 'e', parentTurnId: 'first' },
    };
    const state = replayLog('fixture-session', [...events, ...readAll([edit])]);
    expect(state.branches.parents).toEqual({ first: null, second: 'first', edit: 'first' });
    expect(state.branches.leaf).toBe('edit');
  });
});

describe('version 5 rows', () => {
  it('are read unchanged as version 6 (rewind/applied is new; no older shape changed)', () => {
    const row = {
      schemaVersion: 5,
      sessionId: 'fixture-session',
      seq: 1,
      time: 1,
      durable: true,
      type: 'branch/switched',
      turnId: 'first',
      data: {},
    };
    expect(readAll([row])).toEqual([{ ...row, schemaVersion: AGENT_EVENT_SCHEMA_VERSION }]);
  });

  it('read unchanged as version 6: retries add a type and an optional field', () => {
    const row = {
      schemaVersion: 5,
      sessionId: 'fixture-session',
      seq: 1,
      time: 1,
      durable: true,
      type: 'turn/started',
      turnId: 'first',
      data: { userItemId: 'user-first', text: 'hello', parentTurnId: null },
    };
    expect(readStoredEvent(row)).toEqual({
      ok: true,
      event: { ...row, schemaVersion: AGENT_EVENT_SCHEMA_VERSION },
      upgradedFrom: 5,
    });
  });
});

describe('version 6 rows', () => {
  it('are read unchanged as version 7 (a step retry adds an optional field; no older shape changed)', () => {
    const row = {
      schemaVersion: 6,
      sessionId: 'fixture-session',
      seq: 2,
      time: 2,
      durable: true,
      type: 'turn/started',
      turnId: 'second',
      data: { userItemId: 'user-second', text: 'again', parentTurnId: 'first', retriesToolCall: 'call-1' },
    };
    expect(readStoredEvent(row)).toEqual({
      ok: true,
      event: { ...row, schemaVersion: AGENT_EVENT_SCHEMA_VERSION },
      upgradedFrom: 6,
    });
  });

  it('leave a version-7 step retry readable: the turn names the failed attempt and has no message', () => {
    const row = {
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      sessionId: 'fixture-session',
      seq: 3,
      time: 3,
      durable: true,
      type: 'turn/started',
      turnId: 'third',
      data: {
        userItemId: 'user-third',
        text: '',
        parentTurnId: 'second',
        retriesStep: { turnId: 'second', attemptId: 'attempt-2' },
      },
    };
    expect(readStoredEvent(row)).toEqual({ ok: true, event: row });
  });
});

describe('version 7 rows', () => {
  /** Frozen rows of version 7: a message, a tool call's result and a step retry, as a version-7 build wrote them. */
  const v7Rows = [
    {
      schemaVersion: 7,
      sessionId: 'fixture-session',
      seq: 1,
      time: 1,
      durable: true,
      type: 'turn/started',
      turnId: 'first',
      data: { userItemId: 'user-first', text: 'Show me the counter.', parentTurnId: null },
    },
    {
      schemaVersion: 7,
      sessionId: 'fixture-session',
      seq: 2,
      time: 2,
      durable: true,
      type: 'tool/completed',
      turnId: 'first',
      toolCallId: 'call-1',
      data: {
        output: { ok: true, text: 'The counter is at 41.', app: { resourceUri: 'ui://counter/app.html' } },
        durationMs: 3,
      },
    },
    {
      schemaVersion: 7,
      sessionId: 'fixture-session',
      seq: 3,
      time: 3,
      durable: true,
      type: 'turn/started',
      turnId: 'second',
      data: {
        userItemId: 'user-second',
        text: '',
        parentTurnId: 'first',
        retriesStep: { turnId: 'first', attemptId: 'a1' },
      },
    },
  ];

  it('are read unchanged as version 8 (MCP App contexts add a type and an optional field)', () => {
    for (const row of v7Rows)
      expect(readStoredEvent(row)).toEqual({
        ok: true,
        event: { ...row, schemaVersion: AGENT_EVENT_SCHEMA_VERSION },
        upgradedFrom: 7,
      });
  });

  it('reduce to a state with no app context, so their messages send the model what they sent before', () => {
    const state = replayLog('fixture-session', readAll(v7Rows));
    expect(state.appContexts).toBeUndefined();
    expect(state.turns.first?.appContextIds).toBeUndefined();
    expect(state.turns.first?.userText).toBe('Show me the counter.');
  });

  it('leave a version-8 app context and the message that carried it readable', () => {
    const context = {
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      sessionId: 'fixture-session',
      seq: 4,
      time: 4,
      durable: true,
      type: 'mcp-app/context',
      contextId: 'context-1',
      data: {
        targetId: 'mcp-app-1',
        app: 'showCounter',
        serverName: 'Apps',
        text: 'The counter shows 41.',
        structuredContent: { count: 41 },
        marker: 'ab'.repeat(16),
      },
    };
    const message = {
      ...v7Rows[0],
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      seq: 5,
      turnId: 'third',
      data: { userItemId: 'user-third', text: 'And now?', parentTurnId: 'first', appContexts: ['context-1'] },
    };
    expect(readStoredEvent(context)).toEqual({ ok: true, event: context });
    expect(readStoredEvent(message)).toEqual({ ok: true, event: message });
    const state = replayLog('fixture-session', readAll([...v7Rows, context, message]));
    expect(state.turns.third?.appContextIds).toEqual(['context-1']);
    expect(state.appContexts?.['context-1']).toMatchObject({
      targetId: 'mcp-app-1',
      text: 'The counter shows 41.',
      seq: 4,
    });
  });
});

describe('the frozen version 7 rows', () => {
  const storedV7 = v7Fixture.events.map((row) => row.event as Record<string, unknown>);

  it('are 35 rows of schema version 7 with a rewind in mode versions that names no rewind, its restore committed after it', () => {
    expect(storedV7).toHaveLength(35);
    expect(storedV7.every((event) => event.schemaVersion === 7)).toBe(true);
    const rewind = storedV7.find((event) => event.type === 'rewind/applied') as { seq: number; data: object };
    expect(rewind.data).not.toHaveProperty('rewindId');
    expect(rewind.data).toMatchObject({ mode: 'versions', versions: [{ artifactId: 'orbit-sketch-v71', version: 1 }] });
    expect(storedV7.find((event) => event.seq === rewind.seq + 1)).toMatchObject({
      type: 'artifact/created',
      data: { version: 3, restoredFrom: 1 },
    });
  });

  it('read back unchanged but for the version (version 8 adds a type and optional fields), each upgraded from 7', () => {
    const readings = storedV7.map((event) => readStoredEvent(event));
    expect(readings.every((reading) => reading.ok && reading.upgradedFrom === 7)).toBe(true);
    expect(readAll(storedV7)).toEqual(
      storedV7.map((event) => ({ ...event, schemaVersion: AGENT_EVENT_SCHEMA_VERSION })),
    );
  });

  it('reduce to the client state they reduced to as version 7: the view rewound, then the message after it', () => {
    const migrated = replayLog('fixture-v7', readAll(storedV7));
    expect(meaningfulState(migrated)).toEqual(
      meaningfulState(replayLog('fixture-v7', storedV7 as unknown as AgentEvent[])),
    );
    expect(migrated.turnOrder).toEqual(['a', 'b', 'd']);
    expect(migrated.branches.parents.d).toBe('a');
    expect(migrated.branches.leaf).toBe('d');
  });
});

describe('version 8 rows', () => {
  it('leave a rewind that names itself and its restored version readable, and its completion', () => {
    const base = { schemaVersion: AGENT_EVENT_SCHEMA_VERSION, sessionId: 'fixture-session', time: 3, durable: true };
    const rewind = {
      ...base,
      seq: 3,
      type: 'rewind/applied',
      turnId: 'second',
      data: {
        mode: 'versions',
        rewindId: 'rewind-1',
        parentTurnId: 'first',
        fromLeaf: 'second',
        values: [],
        versions: [{ artifactId: 'orbit', version: 1, restoredAs: 3 }],
      },
    };
    const completed = {
      ...base,
      seq: 8,
      type: 'rewind/completed',
      data: { rewindId: 'rewind-1', reloaded: ['orbit'], applied: [], saved: [] },
    };
    expect(readStoredEvent(rewind)).toEqual({ ok: true, event: rewind });
    expect(readStoredEvent(completed)).toEqual({ ok: true, event: completed });
    expect(readStoredEvent({ ...completed, schemaVersion: 7 })).toMatchObject({ ok: true, upgradedFrom: 7 });
  });
});

describe('version 8 rows, before MCP Apps gave images', () => {
  const base = { sessionId: 'fixture-session', durable: true };
  /** Rows as a version-8 build wrote them: an app's context and the approval card of its message, text only. */
  const v8Rows = [
    {
      ...base,
      schemaVersion: 8,
      seq: 1,
      time: 1,
      type: 'turn/started',
      turnId: 'app-turn',
      data: { userItemId: 'user-app', text: '', parentTurnId: null },
    },
    {
      ...base,
      schemaVersion: 8,
      seq: 2,
      time: 2,
      type: 'approval/requested',
      turnId: 'app-turn',
      requestId: 'request-1',
      toolCallId: 'call-1',
      data: {
        argumentsHash: 'f'.repeat(64),
        summary: 'Add the MCP App “showCounter”’s message to this conversation: “Count to fifty.”',
        expiresAt: 60_000,
        toolName: 'app_send_message',
      },
    },
    {
      ...base,
      schemaVersion: 8,
      seq: 3,
      time: 3,
      type: 'mcp-app/context',
      contextId: 'context-1',
      data: {
        targetId: 'mcp-app-1',
        app: 'showCounter',
        serverName: 'Apps',
        text: 'The counter shows 41.',
        marker: 'ab'.repeat(16),
      },
    },
  ];
  const image = {
    blobId: 'c'.repeat(64),
    sha256: 'c'.repeat(64),
    mime: 'image/png',
    size: 120,
    name: 'showCounter-image-1.png',
    width: 4,
    height: 3,
  };

  it('are read unchanged as version 9, and reduce to a card and a context without images', () => {
    for (const row of v8Rows)
      expect(readStoredEvent(row)).toEqual({
        ok: true,
        event: { ...row, schemaVersion: AGENT_EVENT_SCHEMA_VERSION },
        upgradedFrom: 8,
      });
    const migrated = replayLog('fixture-session', readAll(v8Rows));
    expect(meaningfulState(migrated)).toEqual(
      meaningfulState(replayLog('fixture-session', v8Rows as unknown as AgentEvent[])),
    );
    expect(migrated.requests['request-1']).not.toHaveProperty('images');
    expect(migrated.appContexts?.['context-1']).not.toHaveProperty('images');
  });

  it('leave version-9 images readable: the card shows the message’s, the context sends its own', () => {
    const [, approval, context] = v8Rows.map((row) => ({ ...row, schemaVersion: AGENT_EVENT_SCHEMA_VERSION }));
    const withImages = [
      { ...approval, data: { ...approval.data, images: [image] } },
      { ...context, data: { ...context.data, images: [image, image] } },
    ];
    for (const row of withImages) expect(readStoredEvent(row)).toEqual({ ok: true, event: row });
    const state = replayLog('fixture-session', readAll([v8Rows[0], ...withImages]));
    expect(state.requests['request-1']?.images).toEqual([image]);
    expect(state.appContexts?.['context-1']?.images).toEqual([image, image]);
    const tooMany = { ...context, data: { ...context.data, images: [image, image, image, image] } };
    expect(readStoredEvent(tooMany)).toMatchObject({ ok: false, newer: false });
  });
});

describe('readStoredEvent', () => {
  const current = { ...storedV1[0], schemaVersion: AGENT_EVENT_SCHEMA_VERSION };

  it('has one migration step for every version before the current one', () => {
    for (let version = 1; version < AGENT_EVENT_SCHEMA_VERSION; version++)
      expect(EVENT_MIGRATIONS[version], `step ${version}`).toBeTypeOf('function');
  });

  it('reads an event of the current version as it is, not as upgraded', () => {
    expect(readStoredEvent(current)).toEqual({ ok: true, event: current });
  });

  it('refuses an event of a newer version as newer, naming both versions', () => {
    const reading = readStoredEvent({ ...current, schemaVersion: AGENT_EVENT_SCHEMA_VERSION + 1, data: { novel: 1 } });
    expect(reading).toMatchObject({ ok: false, newer: true });
    expect(reading.ok ? '' : reading.reason).toContain(
      `event schema ${AGENT_EVENT_SCHEMA_VERSION + 1}; this one reads up to ${AGENT_EVENT_SCHEMA_VERSION}`,
    );
  });

  it('refuses what has no usable version, or fails the schema after upgrading', () => {
    for (const raw of [null, [], 'event', { ...current, schemaVersion: undefined }, { ...current, schemaVersion: 0 }])
      expect(readStoredEvent(raw)).toMatchObject({ ok: false, newer: false });
    expect(readStoredEvent({ ...storedV1[0], data: { title: 42 } })).toMatchObject({
      ok: false,
      newer: false,
      reason: expect.stringContaining('data.title'),
    });
  });
});
