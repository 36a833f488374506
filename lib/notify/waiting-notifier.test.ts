import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { PanelVisibility } from './panel-visibility';
import type { WaitingNotice } from './waiting-notice';
import { WaitingNotifier } from './waiting-notifier';

const sessionId = 'session-1';
const base = { schemaVersion: AGENT_EVENT_SCHEMA_VERSION, sessionId, time: 1, durable: true } as const;

const approval: AgentEvent = {
  ...base,
  seq: 4,
  type: 'approval/requested',
  turnId: 'turn-1',
  requestId: 'request-1',
  toolCallId: 'call-1',
  data: { argumentsHash: 'hash', summary: 'Delete all todos', expiresAt: 10_000 },
};
const question: AgentEvent = {
  ...base,
  seq: 5,
  type: 'ask/requested',
  turnId: 'turn-1',
  requestId: 'request-2',
  data: { question: 'Which colour?', answerSchema: { type: 'string' } },
};
const completed: AgentEvent = {
  ...base,
  seq: 6,
  type: 'turn/completed',
  turnId: 'turn-1',
  data: { reason: 'stop' },
};
const delta: AgentEvent = {
  sessionId,
  time: 1,
  durable: false,
  seq: 6,
  type: 'assistant/delta',
  turnId: 'turn-1',
  itemId: 'item-1',
  data: { text: 'Hi' },
} as AgentEvent;

function setup(options: { switchedOn?: boolean; permitted?: boolean } = {}) {
  const visibility = new PanelVisibility();
  const shown: WaitingNotice[] = [];
  const notifier = new WaitingNotifier({
    visibility,
    switchedOn: async () => options.switchedOn ?? true,
    permitted: async () => options.permitted ?? true,
    conversationTitle: async () => 'Plan the week',
    show: async (notice) => void shown.push(notice),
  });
  return { visibility, shown, notifier };
}

describe('WaitingNotifier', () => {
  it('tells of an approval, a question and a finished turn while no panel shows the conversation', async () => {
    const { shown, notifier } = setup();
    for (const event of [approval, question, completed]) await notifier.recorded(event);
    expect(shown.map((notice) => notice.title)).toEqual([
      'Splitbrain needs your approval: Delete all todos',
      'Splitbrain has a question',
      'Splitbrain finished',
    ]);
    expect(shown.every((notice) => notice.message.startsWith('“Plan the week”'))).toBe(true);
    expect(shown[1].message).toBe('“Plan the week”: Which colour?');
  });

  it('stays quiet while a visible panel shows the conversation, and speaks once that panel is hidden or gone', async () => {
    const { visibility, shown, notifier } = setup();
    visibility.report('panel-1', sessionId, true);
    expect(await notifier.recorded(approval)).toBeUndefined();
    visibility.report('panel-1', sessionId, false);
    expect((await notifier.recorded(question))?.title).toBe('Splitbrain has a question');
    visibility.report('panel-1', sessionId, true);
    visibility.gone('panel-1');
    expect((await notifier.recorded(completed))?.title).toBe('Splitbrain finished');
    expect(shown).toHaveLength(2);
  });

  it('counts only a visible panel on this conversation: one on another conversation does not silence it', async () => {
    const { visibility, notifier } = setup();
    visibility.report('panel-1', 'session-2', true);
    visibility.report('panel-2', sessionId, false);
    expect(await notifier.recorded(approval)).toBeDefined();
  });

  it('shows nothing with the switch off or the permission missing', async () => {
    const off = setup({ switchedOn: false });
    const unpermitted = setup({ permitted: false });
    for (const event of [approval, question, completed]) {
      await off.notifier.recorded(event);
      await unpermitted.notifier.recorded(event);
    }
    expect(off.shown).toEqual([]);
    expect(unpermitted.shown).toEqual([]);
  });

  it('shows one notification per request or turn end, however often it is delivered, with a stable id', async () => {
    const { shown, notifier } = setup();
    await Promise.all([notifier.recorded(approval), notifier.recorded(approval)]);
    await notifier.recorded({ ...approval, seq: 9 });
    await notifier.recorded(completed);
    await notifier.recorded(completed);
    expect(shown.map((notice) => notice.notificationId)).toEqual([
      'splitbrain-waiting:approval:session-1:request-1',
      'splitbrain-waiting:turn:session-1:turn-1',
    ]);
    const again = setup();
    await again.notifier.recorded(approval);
    expect(again.shown[0].notificationId).toBe(shown[0].notificationId);
  });

  it('ignores events that leave the user nothing to do', async () => {
    const { shown, notifier } = setup();
    await notifier.recorded(delta);
    expect(shown).toEqual([]);
  });
});
