import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../../lib/protocol/agent-event';

/** A realistic durable log: turns with steps, tool calls and completed assistant text, `count` events long. */
export function syntheticLog(sessionId: string, count: number): AgentEvent[] {
  const events: AgentEvent[] = [];
  let seq = 0;
  let turn = 0;
  const push = (event: Omit<AgentEvent, 'seq' | 'schemaVersion' | 'durable' | 'sessionId' | 'time'>) => {
    seq += 1;
    events.push({
      ...event,
      sessionId,
      seq,
      time: 1_700_000_000_000 + seq,
      schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
      durable: true,
    } as AgentEvent);
  };
  push({ type: 'session/created', data: { title: 'Benchmark session' } } as never);
  while (events.length < count) {
    const turnId = `turn-${turn}`;
    push({
      type: 'turn/started',
      turnId,
      data: { userItemId: `user-${turn}`, text: `Make the particles faster, step ${turn}.` },
    } as never);
    for (let step = 0; step < 2; step++) {
      const stepId = `${turnId}-step-${step}`;
      const attemptId = `${stepId}-attempt`;
      const toolCallId = `${stepId}-call`;
      push({ type: 'step/started', turnId, stepId, attemptId, data: { index: step } } as never);
      push({
        type: 'assistant/completed',
        turnId,
        stepId,
        attemptId,
        itemId: `${stepId}-text`,
        data: { text: 'Reading the parameters first, then changing speed and vectors as asked.' },
      } as never);
      push({ type: 'step/completed', turnId, stepId, attemptId, data: { finishReason: 'tool-calls' } } as never);
      push({
        type: 'tool/requested',
        turnId,
        stepId,
        toolCallId,
        data: {
          toolName: 'setParameters',
          input: {
            changes: [
              { param: 'speed', value: step + turn },
              { param: 'show_vectors', value: true },
            ],
          },
        },
      } as never);
      push({ type: 'tool/started', turnId, toolCallId, data: {} } as never);
      push({
        type: 'tool/completed',
        turnId,
        toolCallId,
        data: {
          output: { ok: true, targetId: 'particles', applied: { speed: step + turn, show_vectors: true } },
          durationMs: 12,
        },
      } as never);
    }
    push({ type: 'turn/completed', turnId, data: { reason: 'stop' } } as never);
    turn += 1;
  }
  return events.slice(0, count);
}
