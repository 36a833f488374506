import { describe, expect, it } from 'vitest';
import { EventLog } from '../../tests/support/event-log';
import type { JsonValue } from '../protocol/json-value';
import type { RestoredTargetValues } from '../protocol/rewind-events';
import { activeTurnOrder } from '../state/branch-tree';
import { replayLog } from '../state/reduce-events';
import { rewindDraft, rewindPlan, valuesStillRestored } from './rewind-plan';

const sha = 'a'.repeat(64);
const ref = { blobId: sha, sha256: sha, mime: 'text/plain', size: 1, name: 'part' };
/** Each version's own parts (its html named after it). */
const partsOf = (number: number) => ({ manifest: ref, html: { ...ref, name: `index-${number}.html` }, script: ref });

/** One turn that runs each call (name, input, output) to completion. */
function turn(log: EventLog, turnId: string, calls: [string, JsonValue, JsonValue][], branch: object = {}) {
  log.add({ type: 'turn/started', turnId, data: { userItemId: `user-${turnId}`, text: turnId, ...branch } });
  calls.forEach(([toolName, input, output], index) => {
    const toolCallId = `${turnId}-call-${index}`;
    log.add({ type: 'tool/requested', turnId, stepId: `step-${turnId}`, toolCallId, data: { toolName, input } });
    log.add({ type: 'tool/started', turnId, toolCallId, data: {} });
    log.add({ type: 'tool/completed', turnId, toolCallId, data: { output, durationMs: 1 } });
  });
  log.turnCompleted(turnId);
}

function version(log: EventLog, artifactId: string, number: number) {
  log.add({
    type: 'artifact/created',
    artifactId,
    data: { kind: 'html-app', version: number, state: 'draft', parts: partsOf(number) },
  });
  log.add({ type: 'artifact/ready', artifactId, data: { version: number, state: 'ready', requested: [] } });
  if (number > 1)
    log.add({
      type: 'artifact/superseded',
      artifactId,
      data: { version: number - 1, state: 'superseded', by: number },
    });
}

/** a reads and sets particles; b sets the speed again, acts on a page, downloads, uploads, calls MCP, runs a job. */
function conversation() {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Rewind' } });
  turn(log, 'a', [
    [
      'getParameters',
      {},
      { ok: true, targetId: 'particles', parameters: { settings: { speed: { value: 8 }, mode: { value: 'auto' } } } },
    ],
    ['setParameter', { param: 'speed', value: 12 }, { ok: true, targetId: 'particles', applied: { speed: 12 } }],
  ]);
  version(log, 'made-here', 1);
  turn(log, 'b', [
    ['setParameters', {}, { ok: true, targetId: 'particles', applied: { speed: 30, colour: 'red' } }],
    ['actOnPage', { action: 'click', ref: 'e4' }, { ok: true, downloads: [{ name: 'report.pdf' }] }],
    ['observePage', {}, { ok: true }],
    ['uploadFile', { file: 'notes.txt' }, { ok: true }],
    ['mcp_files_write', { path: '/tmp/x' }, { ok: true }],
    ['runScript', { code: '1 + 1' }, { ok: true, jobId: 'job-1' }],
  ]);
  version(log, 'made-here', 2);
  version(log, 'made-later', 1);
  return log;
}

describe('rewindPlan', () => {
  it('lists what happened in the world after the point, and what each mode would restore', () => {
    const plan = rewindPlan(conversation().events, 'b');
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const { preview } = plan;
    expect(preview.parentTurnId).toBe('a');
    expect(preview.laterTurns).toBe(1);
    expect(preview.notUndone.map(({ kind, toolName }) => [kind, toolName])).toEqual([
      ['page-action', 'actOnPage'],
      ['download', 'actOnPage'],
      ['upload', 'uploadFile'],
      ['external-tool', 'mcp_files_write'],
      ['job', 'runScript'],
    ]);
    expect(preview.notUndone[0].detail).toBe('action click');
    expect(preview.notUndone[1].detail).toBe('report.pdf');
    expect(preview.values).toEqual([{ targetId: 'particles', values: { speed: 12 } }]);
    expect(preview.unknownValues).toEqual([{ targetId: 'particles', params: ['colour'] }]);
    expect(preview.versions).toEqual([{ artifactId: 'made-here', version: 1, current: 2 }]);
    expect(preview.createdAfter).toEqual(['made-later']);
  });

  it('rewinds to before a first message: nothing in view, and the values read before it are none', () => {
    const plan = rewindPlan(conversation().events, 'a');
    expect(plan.ok && plan.preview.parentTurnId).toBeNull();
    expect(plan.ok && plan.preview.values).toEqual([]);
    expect(plan.ok && plan.preview.unknownValues).toEqual([{ targetId: 'particles', params: ['speed', 'colour'] }]);
  });

  it('counts the values a rewind restored as the values after it', () => {
    const log = conversation();
    const first = rewindPlan(log.events, 'b');
    if (!first.ok) throw new Error(first.reason);
    const {
      sessionId: _sessionId,
      time: _time,
      ...draft
    } = rewindDraft(log.sessionId, first, { rewindId: 'rewind-1', mode: 'values', restoredAs: new Map() }, 9);
    log.add(draft);
    turn(log, 'c', []);
    // Rewinding to before c restores nothing: the speed was 12 then, as the first rewind set it.
    const second = rewindPlan(log.events, 'c');
    expect(second.ok && second.preview.values).toEqual([]);
    // Rewinding to before b again restores 12 over the 12 the first rewind put back: it changed after b's point.
    const third = rewindPlan(log.events, 'b');
    expect(third.ok && third.preview.values).toEqual([{ targetId: 'particles', values: { speed: 12 } }]);
  });

  it('records the mode and the point so a replay shows the rewound view, later turns kept', () => {
    const log = conversation();
    const plan = rewindPlan(log.events, 'b');
    if (!plan.ok) throw new Error(plan.reason);
    const {
      sessionId: _sessionId,
      time: _time,
      ...draft
    } = rewindDraft(log.sessionId, plan, { rewindId: 'rewind-1', mode: 'conversation', restoredAs: new Map() }, 9);
    expect(draft).toMatchObject({ type: 'rewind/applied', turnId: 'b', data: { values: [], versions: [] } });
    log.add(draft);
    let state = replayLog(log.sessionId, log.events);
    expect(state.turnOrder).toEqual(['a', 'b']);
    expect(activeTurnOrder(state)).toEqual(['a']);
    expect(state.branches.rewound).toEqual({ turnId: 'b', fromLeaf: 'b', mode: 'conversation' });
    turn(log, 'c', []);
    state = replayLog(log.sessionId, log.events);
    expect(state.branches.parents.c).toBe('a');
    expect(activeTurnOrder(state)).toEqual(['a', 'c']);
    expect(state.branches.rewound).toBeUndefined();
  });

  it('refuses an unknown turn and a conversation with a reply still running', () => {
    const log = conversation();
    expect(rewindPlan(log.events, 'nope')).toMatchObject({ ok: false });
    log.turnStarted('open');
    expect(rewindPlan(log.events, 'b')).toEqual({
      ok: false,
      reason: 'A reply is still running: stop or finish it before rewinding.',
    });
  });
});

describe('valuesStillRestored', () => {
  it('drops what a later set or rewind changed, keeps what nothing after the rewind touched', () => {
    const log = new EventLog();
    turn(log, 'c', [
      ['setParameter', { param: 'speed', value: 44 }, { ok: true, targetId: 'particles', applied: { speed: 44 } }],
      ['getParameters', {}, { ok: true, targetId: 'orbit', parameters: { orbit: { radius: { value: 7 } } } }],
    ]);
    log.add({
      type: 'rewind/applied',
      turnId: 'c',
      data: {
        mode: 'values',
        parentTurnId: null,
        fromLeaf: 'c',
        values: [{ targetId: 'chart', values: { bars: 3 } }],
        versions: [],
      },
    });
    const restored: RestoredTargetValues[] = [
      { targetId: 'particles', values: { speed: 12, mode: 'auto' } },
      { targetId: 'orbit', values: { radius: 90 } },
      { targetId: 'chart', values: { bars: 9 } },
    ];
    // A read is not a change: the orbit's radius is still put back.
    expect(valuesStillRestored(restored, log.events)).toEqual([
      { targetId: 'particles', values: { mode: 'auto' } },
      { targetId: 'orbit', values: { radius: 90 } },
    ]);
    expect(valuesStillRestored(restored, [])).toEqual(restored);
  });
});

describe("rewindPlan with the toolbar's changes", () => {
  /** a sets 12 (time 1_000 + n); b sets 30; the toolbar's changes at the times given. */
  function withToolbar() {
    const log = new EventLog();
    log.add({ type: 'session/created', data: { title: 'Toolbar' } });
    turn(log, 'a', [
      ['setParameter', { param: 'speed', value: 12 }, { ok: true, targetId: 'particles', applied: { speed: 12 } }],
    ]);
    const afterA = log.events.at(-1)!.time;
    turn(log, 'b', [
      ['setParameter', { param: 'speed', value: 30 }, { ok: true, targetId: 'particles', applied: { speed: 30 } }],
    ]);
    const pointB = log.events.find((event) => event.type === 'turn/started' && event.turnId === 'b')!.time;
    return { log, afterA, pointB };
  }

  it('counts a change from the toolbar before the point as the value then, over an older one of the log', () => {
    const { log, afterA } = withToolbar();
    const plan = rewindPlan(log.events, 'b', {
      edits: [{ time: afterA + 0.5, targetId: 'particles', values: { speed: 20, colour: 'red' } }],
      dropped: false,
    });
    expect(plan.ok && plan.preview.values).toEqual([{ targetId: 'particles', values: { speed: 20 } }]);
    expect(plan.ok && plan.preview.toolbar).toEqual({ changesAfter: 0 });
  });

  it('puts back what the toolbar changed after the point too, and a value only the toolbar knew then', () => {
    const { log, afterA, pointB } = withToolbar();
    const plan = rewindPlan(log.events, 'b', {
      edits: [
        { time: afterA + 0.5, targetId: 'particles', values: { colour: 'red' } },
        { time: pointB + 50, targetId: 'particles', values: { colour: 'blue', size: 3 } },
      ],
      dropped: true,
    });
    expect(plan.ok && plan.preview.values).toEqual([{ targetId: 'particles', values: { speed: 12, colour: 'red' } }]);
    expect(plan.ok && plan.preview.unknownValues).toEqual([{ targetId: 'particles', params: ['size'] }]);
    expect(plan.ok && plan.preview.toolbar).toEqual({ changesAfter: 1, keptSince: afterA + 0.5 });
  });

  it('leaves out of a late completion what the toolbar changed after the rewind', () => {
    const restored: RestoredTargetValues[] = [{ targetId: 'particles', values: { speed: 12, colour: 'red' } }];
    expect(
      valuesStillRestored(restored, [], [{ time: 5, targetId: 'particles', values: { colour: 'green' } }]),
    ).toEqual([{ targetId: 'particles', values: { speed: 12 } }]);
  });
});
