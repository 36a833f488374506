import {
  AGENT_EVENT_SCHEMA_VERSION,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
} from '../../lib/protocol/agent-event';
import type { JsonValue } from '../../lib/protocol/json-value';
import type { ToolExecutionRequest } from '../../lib/protocol/tool-execution-request';
import type { EndpointSettings } from '../../lib/settings/endpoint-settings';
import { replayLog } from '../../lib/state/reduce-events';
import type { TurnOutcome } from '../../lib/agent/turn-outcome';
import type { RuntimeClient } from '../../lib/agent/runtime-client';
import { startTurn } from '../../lib/agent/turn-driver';

/** A conversation's log in memory, appended as the runtime appends it (durable events numbered in order). */
export class MemoryLog {
  readonly events: AgentEvent[] = [];

  client(executeTool: (request: ToolExecutionRequest) => JsonValue): RuntimeClient {
    return {
      appendEvents: async (_sessionId, drafts: AgentEventDraft[]) => {
        for (const draft of drafts) {
          const durable = isDurableType(draft.type);
          const seq = (this.events.at(-1)?.seq ?? 0) + (durable ? 1 : 0);
          this.events.push({ ...draft, schemaVersion: AGENT_EVENT_SCHEMA_VERSION, seq, durable } as AgentEvent);
        }
      },
      executeTool: async (request) => ({ status: 'completed', output: executeTool(request) }),
      takeSteers: async () => [],
      submitCommand: async () => undefined,
      ownTurn: () => undefined,
      releaseTurn: () => undefined,
    };
  }

  /** One turn of the real driver and agent loop, from the history the durable log replays to. */
  async turn(
    settings: EndpointSettings,
    text: string,
    executeTool: (request: ToolExecutionRequest) => JsonValue = () => ({ ok: true }),
  ): Promise<TurnOutcome> {
    const state = replayLog(
      's',
      this.events.filter((event) => event.durable),
    );
    return startTurn({ client: this.client(executeTool), settings, state, text }).done;
  }

  ofType<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
  }
}
