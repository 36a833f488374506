import { describe, expect, it, vi } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { replayLog } from '../state/reduce-events';
import { modelHistory } from '../agent/model-history';
import { testRuntime } from '../../tests/support/test-runtime';
import { RESUME_NOTE } from './turn-commands';

const sessionId = 'session-1';
const turnStarted: AgentEventDraft = {
  type: 'turn/started',
  sessionId,
  turnId: 'turn-1',
  time: 1,
  data: { userItemId: 'user-1', text: 'Fill in the form' },
};

function setup(store = new MemoryEventStore()) {
  const freshObservation = vi.fn(async () => ({ ok: true, observationId: 'obs-fresh', snapshot: 'textbox "Email"' }));
  const runtime = testRuntime({ store, freshObservation });
  return { store, runtime, freshObservation };
}

async function types(runtime: ReturnType<typeof setup>['runtime']): Promise<string[]> {
  return (await runtime.read(sessionId, 0)).map((event) =>
    event.type === 'command/state' ? `${event.data.kind}:${event.data.state}` : event.type,
  );
}

describe('pause and resume of a turn', () => {
  it('queues a pause, applies it at the safe point as turn/paused, and resumes once with the note and a fresh observation', async () => {
    const { runtime, freshObservation } = setup();
    await runtime.append(sessionId, [turnStarted]);
    expect(await runtime.takePause(sessionId, 'turn-1')).toBe(false);
    const submitted = await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'pause-1', kind: 'pause' });
    expect(submitted).toMatchObject({ state: 'queued', turnStatus: 'running' });
    expect(await runtime.takePause(sessionId, 'turn-1')).toBe(true);
    expect(await runtime.takePause(sessionId, 'turn-1')).toBe(false);
    expect(await runtime.commandStatus(sessionId, 'pause-1')).toMatchObject({ state: 'applied', turnStatus: 'paused' });
    // A steer while paused waits for the resume.
    await runtime.submitCommand({
      sessionId,
      turnId: 'turn-1',
      commandId: 'steer-1',
      kind: 'steer',
      text: 'I typed it',
    });

    const resumed = await runtime.resumeTurn({ sessionId, turnId: 'turn-1', commandId: 'resume-1', observe: true });
    expect(resumed).toMatchObject({ state: 'applied', note: RESUME_NOTE, observation: { observationId: 'obs-fresh' } });
    expect(freshObservation).toHaveBeenCalledWith(sessionId, 'resume-1');
    // The same resume again changes nothing; a resume of a running turn is stale.
    expect(await runtime.resumeTurn({ sessionId, turnId: 'turn-1', commandId: 'resume-1', observe: true })).toEqual({
      commandId: 'resume-1',
      state: 'applied',
      turnStatus: 'running',
    });
    expect(
      await runtime.resumeTurn({ sessionId, turnId: 'turn-1', commandId: 'resume-2', observe: true }),
    ).toMatchObject({ state: 'stale' });
    expect(freshObservation).toHaveBeenCalledTimes(1);
    expect(await runtime.takeSteers(sessionId, 'turn-1')).toEqual([{ commandId: 'steer-1', text: 'I typed it' }]);
    expect(await types(runtime)).toEqual([
      'turn/started',
      'pause:queued',
      'pause:applied',
      'turn/paused',
      'steer:queued',
      'resume:applied',
      'turn/resumed',
      'resume:stale',
      'steer:applied',
    ]);

    const state = replayLog(sessionId, await runtime.read(sessionId, 0));
    expect(state.turns['turn-1'].status).toBe('running');
    const history = modelHistory(state);
    expect(history.map((message) => message.role)).toEqual(['user', 'user', 'user']);
    expect(String(history[1].content)).toContain(RESUME_NOTE);
    expect(String(history[1].content)).toContain('"observationId":"obs-fresh"');
    expect(history[2].content).toBe('I typed it');
  });

  it('a paused turn is not orphaned: the panel going away or a restart leaves it paused, and a cancel stops it', async () => {
    const store = new MemoryEventStore();
    const first = setup(store).runtime;
    await first.append(sessionId, [turnStarted]);
    first.registerOwner('panel-1', () => undefined);
    first.claimTurn('panel-1', 'turn-1');
    await first.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'pause-1', kind: 'pause' });
    await first.takePause(sessionId, 'turn-1');
    first.releaseTurn('panel-1', 'turn-1');
    await first.ownerGone('panel-1', [sessionId], 'The side panel was closed during this turn.');

    const restarted = setup(store).runtime;
    await restarted.interruptOrphanedTurns(sessionId, 'The side panel that ran this turn is gone.');
    expect(replayLog(sessionId, await restarted.read(sessionId, 0)).turns['turn-1'].status).toBe('paused');
    expect(
      await restarted.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'pause-2', kind: 'pause' }),
    ).toMatchObject({ state: 'stale', turnStatus: 'paused' });

    const stopped = await restarted.submitCommand({
      sessionId,
      turnId: 'turn-1',
      commandId: 'cancel-1',
      kind: 'cancel',
    });
    expect(stopped).toMatchObject({ state: 'applied', turnStatus: 'aborted' });
    expect(replayLog(sessionId, await restarted.read(sessionId, 0)).turns['turn-1'].status).toBe('aborted');
    expect(
      await restarted.resumeTurn({ sessionId, turnId: 'turn-1', commandId: 'resume-1', observe: false }),
    ).toMatchObject({ state: 'stale', turnStatus: 'aborted' });
  });

  it('a pause still queued when the turn ends goes stale', async () => {
    const { runtime } = setup();
    await runtime.append(sessionId, [turnStarted]);
    await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'pause-1', kind: 'pause' });
    await runtime.append(sessionId, [
      { type: 'turn/completed', sessionId, turnId: 'turn-1', time: 2, data: { reason: 'stop' } },
    ]);
    expect(await runtime.commandStatus(sessionId, 'pause-1')).toMatchObject({
      state: 'stale',
      turnStatus: 'completed',
    });
  });
});
