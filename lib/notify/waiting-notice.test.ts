import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import { sessionOfNotice, waitingNotice } from './waiting-notice';

const aborted: AgentEvent = {
  schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
  sessionId: 'session:odd/1',
  time: 1,
  durable: true,
  seq: 3,
  type: 'turn/aborted',
  turnId: 'turn-1',
  data: { reason: 'Stopped.' },
};

describe('waitingNotice', () => {
  it('names the conversation (or says it has no title) and reads its session back from the id', () => {
    const notice = waitingNotice(aborted, '')!;
    expect(notice.title).toBe('Splitbrain stopped');
    expect(notice.message).toBe('“Untitled conversation”');
    expect(sessionOfNotice(notice.notificationId)).toBe('session:odd/1');
  });

  it('clips a long summary to one short line', () => {
    const long = waitingNotice(
      {
        ...aborted,
        type: 'approval/requested',
        requestId: 'request-1',
        toolCallId: 'call-1',
        data: { argumentsHash: 'h', summary: `Type\n${'x'.repeat(400)}`, expiresAt: 1 },
      } as AgentEvent,
      'Title',
    )!;
    expect(long.title.length).toBeLessThanOrEqual(300);
    expect(long.title).not.toContain('\n');
    expect(long.title.endsWith('…')).toBe(true);
  });

  it('reads no session from an id that is not its own', () => {
    expect(sessionOfNotice('other:approval:session-1:request-1')).toBeUndefined();
    expect(sessionOfNotice('splitbrain-waiting:approval:%E0%A4%A:request-1')).toBeUndefined();
  });
});
