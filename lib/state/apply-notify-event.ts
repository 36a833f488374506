import type { AgentEventOf } from '../protocol/agent-event';
import type { NotifyFactType } from '../protocol/notify-events';
import type { FactNotice } from './client-state';
import type { EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

export type NotifyEvent = AgentEventOf<NotifyFactType | 'notify/dismissed'>;

function levelOf(event: NotifyEvent): FactNotice['level'] {
  if (event.type === 'notify/security-warning' || event.type === 'notify/budget-reached') return 'warning';
  if (event.type === 'notify/job-finished' && event.data.state !== 'completed') return 'warning';
  return 'info';
}

function referenceOf(event: Exclude<NotifyEvent, { type: 'notify/dismissed' }>): FactNotice['reference'] {
  switch (event.type) {
    case 'notify/job-finished':
      return { kind: 'job', jobId: event.jobId };
    case 'notify/budget-reached':
      return { kind: 'budget', budget: event.data.budget };
    case 'notify/security-warning':
      return {
        kind: 'security',
        warning: event.data.warning,
        ...(event.toolCallId ? { toolCallId: event.toolCallId } : {}),
        ...(event.data.targetId ? { targetId: event.data.targetId } : {}),
        ...(event.data.url ? { url: event.data.url } : {}),
      };
    case 'notify/access-revoked':
      return { kind: 'site', origin: event.data.origin };
  }
}

/** Fact notifications by id; a dismissal only hides one (the fact it tells of stays in the log). */
function applyNotifyEvent(copy: WorkingCopy, event: NotifyEvent): void {
  const facts = { ...copy.state.facts };
  if (event.type === 'notify/dismissed') {
    const known = facts[event.notificationId];
    if (!known || known.dismissed) return;
    facts[event.notificationId] = { ...known, dismissed: true };
  } else {
    if (facts[event.notificationId]) return;
    const turnId = 'turnId' in event ? event.turnId : undefined;
    facts[event.notificationId] = {
      notificationId: event.notificationId,
      type: event.type,
      seq: event.seq,
      time: event.time,
      level: levelOf(event),
      message: event.data.message,
      reference: referenceOf(event),
      ...(turnId ? { turnId } : {}),
      dismissed: false,
    };
  }
  copy.state.facts = facts;
}

/** The agent loop's free-text notice about its own turn, which names no fact. */
function addLoopNotice(copy: WorkingCopy, event: AgentEventOf<'notification'>): void {
  copy
    .notifications()
    .push({ notificationId: event.notificationId, level: event.data.level, message: event.data.message });
}

/** Notices: the loop's own, and the fact notifications with their dismissals. */
export const NOTICE_APPLIERS: EventAppliers<NotifyEvent['type'] | 'notification'> = {
  notification: addLoopNotice,
  'notify/job-finished': applyNotifyEvent,
  'notify/budget-reached': applyNotifyEvent,
  'notify/security-warning': applyNotifyEvent,
  'notify/access-revoked': applyNotifyEvent,
  'notify/dismissed': applyNotifyEvent,
};

/** The fact notifications still worth showing, in log order. */
export function relevantFacts(facts: Readonly<Record<string, FactNotice>>): FactNotice[] {
  return Object.values(facts)
    .filter((fact) => !fact.dismissed)
    .sort((left, right) => left.seq - right.seq);
}
