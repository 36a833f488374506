import type { AppToolCallAccess } from './app-tool-call';
import type { TurnOwners } from './turn-owners';

/** The owner of the turns an MCP App's own tool calls run in: the runtime itself, never a panel. */
const APP_CALLS_OWNER = 'runtime:mcp-app-calls';

/** Registers the runtime as the owner of app calls' turns, and returns how a call owns and releases its turn. */
export function appCallOwnership(owners: TurnOwners): Pick<AppToolCallAccess, 'own' | 'release'> {
  const stops = new Map<string, (commandId: string) => void>();
  owners.register(APP_CALLS_OWNER, ({ turnId, commandId }) => stops.get(turnId)?.(commandId));
  return {
    own: (turnId, onStop) => {
      stops.set(turnId, onStop);
      owners.claim(APP_CALLS_OWNER, turnId);
    },
    release: (turnId) => {
      stops.delete(turnId);
      owners.release(APP_CALLS_OWNER, turnId);
    },
  };
}
