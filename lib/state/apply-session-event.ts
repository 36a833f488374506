import type { AgentEventOf } from '../protocol/agent-event';
import type { EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

function setTitle(copy: WorkingCopy, event: AgentEventOf<'session/created' | 'session/renamed'>): void {
  copy.state.title = event.data.title;
}

/** The conversation itself: its title when it was made and when it was renamed. */
export const SESSION_APPLIERS: EventAppliers<'session/created' | 'session/renamed'> = {
  'session/created': setTitle,
  'session/renamed': setTitle,
};
