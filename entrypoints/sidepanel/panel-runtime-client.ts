import type { RuntimeClient } from '@/lib/agent/runtime-client';
import { callRuntime, type EventsConnection } from '../shared/call-runtime';

/** The turn's own requests try longer than the default, to ride out a service-worker restart. */
const TURN_ATTEMPTS = 6;

/** The turn driver's runtime: runtime messages, and turn ownership on the panel's events port. */
export function panelRuntimeClient(connection: EventsConnection): RuntimeClient {
  return {
    // The batch id makes a retry after a lost reply harmless: the runtime writes each batch once.
    appendEvents: async (sessionId, events) => {
      await callRuntime({ type: 'events/append', sessionId, batchId: crypto.randomUUID(), events });
    },
    executeTool: (request) => callRuntime({ type: 'tool/execute', ...request }, TURN_ATTEMPTS),
    retryToolCall: (request) => callRuntime({ type: 'tool/retry', ...request }, TURN_ATTEMPTS),
    takeSteers: async (sessionId, turnId) =>
      (await callRuntime({ type: 'steer/take', sessionId, turnId }, TURN_ATTEMPTS)).steers,
    submitCommand: async (command) => {
      await callRuntime({ type: 'command/submit', ...command }, TURN_ATTEMPTS);
    },
    takePause: async (sessionId, turnId) =>
      (await callRuntime({ type: 'pause/take', sessionId, turnId }, TURN_ATTEMPTS)).paused,
    resumeTurn: (command) => callRuntime({ type: 'turn/resume', ...command }, TURN_ATTEMPTS),
    ownTurn: (sessionId, turnId) => connection.ownTurn(sessionId, turnId),
    releaseTurn: (sessionId, turnId) => connection.releaseTurn(sessionId, turnId),
    budgetReached: async (sessionId, turnId) =>
      (await callRuntime({ type: 'budget/check', sessionId, turnId }, TURN_ATTEMPTS)).reached,
    mcpTools: () => callRuntime({ type: 'mcp/tools' }, TURN_ATTEMPTS),
  };
}
