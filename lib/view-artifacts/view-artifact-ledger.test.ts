import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/agent-event';
import { reduceEvents } from '../state/reduce-events';
import { initialClientState } from '../state/client-state';
import { ViewArtifactLedger } from './view-artifact-ledger';

function shown(seq: number, version: number, toolCallId: string): AgentEvent {
  return {
    type: 'artifact/shown',
    seq,
    durable: true,
    sessionId: 'session-1',
    turnId: 'turn-1',
    toolCallId,
    artifactId: 'speeds',
    time: seq,
    data: {
      version,
      ...(version > 1 ? { baseVersion: version - 1 } : {}),
      title: `Speeds v${version}`,
      content: { kind: 'table', data: { columns: [{ label: 'Speed', type: 'number' }], rows: [[version]] } },
    },
  } as AgentEvent;
}

describe('ViewArtifactLedger', () => {
  it('restored from a snapshot state knows what the log it was reduced from says', () => {
    const started = {
      type: 'turn/started',
      seq: 1,
      durable: true,
      sessionId: 'session-1',
      turnId: 'turn-1',
      time: 1,
      data: { userItemId: 'user-1', text: 'show the speeds' },
    } as AgentEvent;
    const events = [started, shown(2, 1, 'call-1'), shown(3, 2, 'call-2')];
    const replayed = new ViewArtifactLedger();
    for (const event of events) replayed.observe(event);
    const state = reduceEvents(initialClientState('session-1'), events);
    const restored = ViewArtifactLedger.restored(state.viewArtifacts);
    expect(restored.get('speeds')).toEqual(replayed.get('speeds'));
    expect(restored.get('speeds')?.version).toBe(2);
    expect(restored.madeBy('call-1')).toEqual({ artifactId: 'speeds', version: 1 });
    expect(restored.madeBy('call-2')).toEqual(replayed.madeBy('call-2'));
  });
});
