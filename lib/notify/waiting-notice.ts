import type { AgentEvent } from '../protocol/agent-event';

/** A browser notification telling that a conversation waits for the user, with an id stable per request or turn end. */
export interface WaitingNotice {
  notificationId: string;
  title: string;
  message: string;
}

const ID_PREFIX = 'splitbrain-waiting';
const MESSAGE_LIMIT = 240;

function clip(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > MESSAGE_LIMIT ? `${single.slice(0, MESSAGE_LIMIT - 1)}…` : single;
}

function noticeId(sessionId: string, kind: string, key: string): string {
  return [ID_PREFIX, kind, sessionId, key].map(encodeURIComponent).join(':');
}

const TURN_END_TITLE: Partial<Record<AgentEvent['type'], string>> = {
  'turn/completed': 'Splitbrain finished',
  'turn/aborted': 'Splitbrain stopped',
  'turn/interrupted': 'Splitbrain was interrupted',
};

/** What a browser notification says about an event that leaves the user something to do, if it does. */
export function waitingNotice(event: AgentEvent, conversationTitle: string): WaitingNotice | undefined {
  const conversation = `“${clip(conversationTitle) || 'Untitled conversation'}”`;
  if (event.type === 'approval/requested') {
    return {
      notificationId: noticeId(event.sessionId, 'approval', event.requestId),
      title: `Splitbrain needs your approval: ${clip(event.data.summary)}`,
      message: conversation,
    };
  }
  if (event.type === 'ask/requested') {
    return {
      notificationId: noticeId(event.sessionId, 'ask', event.requestId),
      title: 'Splitbrain has a question',
      message: `${conversation}: ${clip(event.data.question)}`,
    };
  }
  const title = TURN_END_TITLE[event.type];
  if (title && 'turnId' in event && event.turnId) {
    return { notificationId: noticeId(event.sessionId, 'turn', event.turnId), title, message: conversation };
  }
  return undefined;
}

/** The conversation a waiting notification is about, read back from its id when it is clicked. */
export function sessionOfNotice(notificationId: string): string | undefined {
  const [prefix, , sessionId] = notificationId.split(':');
  if (prefix !== ID_PREFIX || !sessionId) return undefined;
  try {
    return decodeURIComponent(sessionId);
  } catch {
    return undefined;
  }
}
