import { describe, expect, it } from 'vitest';
import { EventLog } from '../../tests/support/event-log';
import { modelHistory } from '../agent/model-history';
import { branchSwitchEvent } from '../panel/branch-switch';
import { regenerateRequest, resendRequest } from '../panel/turn-request';
import { activeTurnOrder, answerVariants, leafBelow, messageVariants, pathTo } from './branch-tree';
import { reduceEvents, replayLog } from './reduce-events';

function answered(log: EventLog, turnId: string, text: string, answer: string, branch: object = {}) {
  log.add({ type: 'turn/started', turnId, data: { userItemId: `user-${turnId}`, text, ...branch } });
  const ids = { turnId, stepId: `step-${turnId}`, attemptId: `attempt-${turnId}`, itemId: `item-${turnId}` };
  log.stepStarted(ids);
  log.completed(ids, answer);
  log.turnCompleted(turnId);
}

/** a → b, then b edited (c), then c's answer regenerated (d), then a follow-up after d (e). */
function branched() {
  const log = new EventLog();
  log.add({ type: 'session/created', data: { title: 'Speed' } });
  answered(log, 'a', 'Set the speed to 12', 'Done: 12.');
  answered(log, 'b', 'Now 20', 'Done: 20.');
  answered(log, 'c', 'Now 25', 'Done: 25.', { parentTurnId: 'a' });
  answered(log, 'd', 'Now 25', 'Set to 25.', { parentTurnId: 'a', answerOf: 'c' });
  answered(log, 'e', 'And the colour blue', 'Blue.');
  return log;
}

describe('branch tree', () => {
  it('reads a version-4 log, which names no parents, as one branch in log order', () => {
    const log = new EventLog();
    answered(log, 'a', 'one', 'One.');
    answered(log, 'b', 'two', 'Two.');
    const state = replayLog(log.sessionId, log.events);
    expect(state.branches.parents).toEqual({ a: null, b: 'a' });
    expect(activeTurnOrder(state)).toEqual(['a', 'b']);
  });

  it('keeps every turn and shows the path to the newest one', () => {
    const state = replayLog('session-1', branched().events);
    expect(state.turnOrder).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(activeTurnOrder(state)).toEqual(['a', 'd', 'e']);
    expect(messageVariants(state.branches, 'd')).toEqual({ turnIds: ['b', 'c'], index: 1 });
    expect(answerVariants(state.branches, 'd')).toEqual({ turnIds: ['c', 'd'], index: 1 });
    expect(answerVariants(state.branches, 'b')).toEqual({ turnIds: ['b'], index: 0 });
  });

  it('sends the model only the branch in view, and switches by an event', () => {
    const log = branched();
    let state = replayLog(log.sessionId, log.events);
    const texts = () =>
      modelHistory(state).map((message) =>
        typeof message.content === 'string'
          ? message.content
          : message.content.map((part) => ('text' in part ? part.text : '')).join(''),
      );
    expect(texts()).toEqual([
      'Set the speed to 12',
      'Done: 12.',
      'Now 25',
      'Set to 25.',
      'And the colour blue',
      'Blue.',
    ]);

    const toFirstMessage = branchSwitchEvent(state, 'b', 'message', 5);
    expect(toFirstMessage).toMatchObject({ type: 'branch/switched', turnId: 'b' });
    state = reduceEvents(state, [log.add(toFirstMessage!)]);
    expect(activeTurnOrder(state)).toEqual(['a', 'b']);
    expect(texts()).toEqual(['Set the speed to 12', 'Done: 12.', 'Now 20', 'Done: 20.']);

    // Back to the edited message: its newest answer and what followed it.
    state = reduceEvents(state, [log.add(branchSwitchEvent(state, 'c', 'message', 6)!)]);
    expect(state.branches.leaf).toBe('e');
    state = reduceEvents(state, [log.add(branchSwitchEvent(state, 'c', 'answer', 7)!)]);
    expect(activeTurnOrder(state)).toEqual(['a', 'c']);
    expect(branchSwitchEvent(state, 'c', 'answer', 8)).toBeUndefined();
    expect(replayLog(log.sessionId, log.events)).toEqual(state);
  });

  it('ignores a switch to a turn it does not know, and reads an unknown parent as the leaf', () => {
    const log = branched();
    log.add({ type: 'branch/switched', turnId: 'gone', data: {} });
    answered(log, 'f', 'Next', 'Next.', { parentTurnId: 'nowhere' });
    const state = replayLog(log.sessionId, log.events);
    expect(pathTo(state.branches, 'f')).toEqual(['a', 'd', 'e', 'f']);
  });

  it('finds the newest leaf below a turn', () => {
    const state = replayLog('session-1', branched().events);
    expect(leafBelow(state.branches, 'a')).toBe('e');
    expect(leafBelow(state.branches, 'b')).toBe('b');
  });

  it('makes an edit a sibling of the edited turn and a regeneration a sibling of the answer', () => {
    const state = replayLog('session-1', branched().events);
    expect(resendRequest(state, 'Now 30', 'e')).toEqual({
      text: 'Now 30',
      parentTurnId: 'd',
      overBudget: false,
      attachments: [],
    });
    expect(resendRequest(state, 'Only 5', 'a').parentTurnId).toBeNull();
    expect(regenerateRequest(state, 'd')).toEqual({
      text: 'Now 25',
      parentTurnId: 'a',
      answerOf: 'd',
      overBudget: false,
      attachments: [],
    });
    expect(regenerateRequest(state, 'missing')).toBeUndefined();
  });

  it('files a regeneration of a regeneration under the first answer', () => {
    const log = branched();
    answered(log, 'g', 'Now 25', 'Twenty-five.', { parentTurnId: 'a', answerOf: 'd' });
    const state = replayLog(log.sessionId, log.events);
    expect(answerVariants(state.branches, 'g')).toEqual({ turnIds: ['c', 'd', 'g'], index: 2 });
    expect(messageVariants(state.branches, 'g')).toEqual({ turnIds: ['b', 'c'], index: 1 });
  });
});
