import { runAgentTurn } from '../../lib/agent/agent-loop';
import type { TurnOutcome } from '../../lib/agent/turn-outcome';
import type { AgentLoopOptions } from '../../lib/agent/agent-loop-options';
import type { AgentEventDraft } from '../../lib/protocol/agent-event';

/**
 * One agent turn with the plumbing a test does not look at filled in: ids and a clock from one counter,
 * nothing to flush, every tool answering `{ ok: true }`, a signal nobody aborts. Every emitted draft is kept
 * in order, and `options.emit`, when given, sees each batch after that.
 */
export async function runTestTurn(
  options: Partial<Omit<AgentLoopOptions, 'model'>> & { model: AgentLoopOptions['model'] },
): Promise<{ outcome: TurnOutcome; drafts: AgentEventDraft[] }> {
  const drafts: AgentEventDraft[] = [];
  let counter = 0;
  const emit = options.emit;
  const outcome = await runAgentTurn({
    sessionId: 's',
    turnId: 't',
    messages: [{ role: 'user', content: 'go' }],
    flush: async () => undefined,
    executeTool: async () => ({ ok: true }),
    signal: new AbortController().signal,
    newId: () => `id-${++counter}`,
    now: () => counter,
    ...options,
    emit: (batch) => {
      drafts.push(...batch);
      emit?.(batch);
    },
  });
  return { outcome, drafts };
}
