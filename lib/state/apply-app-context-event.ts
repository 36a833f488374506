import type { AgentEventOf } from '../protocol/agent-event';
import type { EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

function applyAppContext(copy: WorkingCopy, event: AgentEventOf<'mcp-app/context'>): void {
  const { structuredContent, images, ...data } = event.data;
  copy.state.appContexts = {
    ...copy.state.appContexts,
    [event.contextId]: {
      contextId: event.contextId,
      seq: event.seq,
      time: event.time,
      ...data,
      ...(structuredContent ? { structuredContent } : {}),
      ...(images ? { images } : {}),
    },
  };
}

/** What an MCP App told the model, kept by its id for the next message on a branch to carry. */
export const APP_CONTEXT_APPLIERS: EventAppliers<'mcp-app/context'> = { 'mcp-app/context': applyAppContext };
