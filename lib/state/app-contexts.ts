import { MAX_APP_CONTEXTS_PER_TURN } from '../protocol/mcp-app-context-events';
import { activeTurnOrder } from './branch-tree';
import type { AppContextView, ClientState, TurnState } from './client-state';

/**
 * What the MCP Apps told the model that the next message on the branch in view carries: of each app opening, its
 * latest context, unless a message on the branch already carried that one; the newest few, oldest first. A pure
 * function of the state, so the turn that sends them records which they were (`turn/started`'s `appContexts`).
 */
export function pendingAppContexts(
  state: Pick<ClientState, 'appContexts' | 'turns' | 'turnOrder' | 'branches'>,
): AppContextView[] {
  const contexts = Object.values(state.appContexts ?? {}).sort((a, b) => a.seq - b.seq);
  if (contexts.length === 0) return [];
  const carried = new Set(activeTurnOrder(state).flatMap((turnId) => state.turns[turnId]?.appContextIds ?? []));
  const latest = new Map<string, AppContextView>();
  for (const context of contexts) latest.set(context.targetId, context);
  return [...latest.values()]
    .filter((context) => !carried.has(context.contextId))
    .sort((a, b) => a.seq - b.seq)
    .slice(-MAX_APP_CONTEXTS_PER_TURN);
}

/** The contexts a turn's message carried, in the order it names them (any the state does not hold left out). */
export function turnAppContexts(
  state: Pick<ClientState, 'appContexts'>,
  turn: Pick<TurnState, 'appContextIds'>,
): AppContextView[] {
  return (turn.appContextIds ?? []).flatMap((contextId) => state.appContexts?.[contextId] ?? []);
}
