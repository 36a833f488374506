import {
  AGENT_EVENT_SCHEMA_VERSION,
  agentEventSchema,
  isDurableType,
  type AgentEvent,
  type AgentEventDraft,
} from '../../lib/protocol/agent-event';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A draft without the session and time, which the log fills in. */
export type LogDraft = DistributiveOmit<AgentEventDraft, 'sessionId' | 'time'> & { time?: number };

export interface ItemIds {
  turnId: string;
  stepId: string;
  attemptId: string;
  itemId: string;
}

/**
 * Builds a session's event stream stamped exactly as the runtime stamps it: durable events take the next
 * seq, a transient event carries the seq of the durable event it follows. Every event is schema-checked.
 */
export class EventLog {
  readonly events: AgentEvent[] = [];
  private seq = 0;
  private clock = 1_000;

  constructor(readonly sessionId = 'session-1') {}

  add(draft: LogDraft): AgentEvent {
    const durable = isDurableType(draft.type);
    if (durable) this.seq += 1;
    this.clock += 1;
    const event = agentEventSchema.parse({
      time: this.clock,
      ...draft,
      sessionId: this.sessionId,
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      seq: this.seq,
      durable,
    });
    this.events.push(event);
    return event;
  }

  /** Only the durable events: what the store holds. */
  get durable(): AgentEvent[] {
    return this.events.filter((event) => event.durable);
  }

  bySeq(seq: number): AgentEvent {
    const event = this.events.find((candidate) => candidate.durable && candidate.seq === seq);
    if (!event) throw new Error(`No durable event with seq ${seq}`);
    return event;
  }

  turnStarted(turnId: string, text = 'Set the speed to 12'): AgentEvent {
    return this.add({ type: 'turn/started', turnId, data: { userItemId: `user-${turnId}`, text } });
  }

  stepStarted(ids: Omit<ItemIds, 'itemId'>, index = 0): AgentEvent {
    return this.add({
      type: 'step/started',
      turnId: ids.turnId,
      stepId: ids.stepId,
      attemptId: ids.attemptId,
      data: { index },
    });
  }

  delta(ids: ItemIds, index: number, text: string, kind: 'assistant' | 'reasoning' = 'assistant'): AgentEvent {
    return this.add({
      type: kind === 'assistant' ? 'assistant/delta' : 'reasoning/delta',
      ...ids,
      data: { index, text },
    });
  }

  completed(ids: ItemIds, text: string, kind: 'assistant' | 'reasoning' = 'assistant'): AgentEvent {
    return this.add({
      type: kind === 'assistant' ? 'assistant/completed' : 'reasoning/completed',
      ...ids,
      data: { text },
    });
  }

  interrupted(ids: ItemIds, text: string, reason = 'Stopped by the user.'): AgentEvent {
    return this.add({ type: 'assistant/interrupted', ...ids, data: { text, reason } });
  }

  turnCompleted(turnId: string): AgentEvent {
    return this.add({ type: 'turn/completed', turnId, data: { reason: 'stop' } });
  }

  toolRequested(
    turnId: string,
    stepId: string,
    toolCallId: string,
    input: Record<string, number | string> = { speed: 12 },
  ): AgentEvent {
    return this.add({ type: 'tool/requested', turnId, stepId, toolCallId, data: { toolName: 'setParameter', input } });
  }

  toolPreview(turnId: string, stepId: string, toolCallId: string, index: number, delta: string): AgentEvent {
    return this.add({
      type: 'tool/input-delta',
      turnId,
      stepId,
      toolCallId,
      data: { toolName: 'setParameter', index, delta },
    });
  }
}
