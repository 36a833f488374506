import type { ClientState } from '../state/client-state';

/** The line above the composer while the last turn runs: what it waits for, or what it is doing. */
export function statusText(state: ClientState, running: boolean): string {
  const lastTurn = state.turns[state.turnOrder.at(-1) ?? ''];
  if (!running && lastTurn?.status !== 'running') return '';
  if (lastTurn?.retry) return 'Waiting to retry…';
  const waitingFor = Object.values(state.requests).find(
    (request) => request.turnId === lastTurn?.turnId && request.status === 'pending',
  );
  if (waitingFor) return waitingFor.kind === 'approval' ? 'Waiting for your approval…' : 'Waiting for your answer…';
  const runningTool = lastTurn?.entries
    .map((entry) => (entry.kind === 'tool' ? state.toolCalls[entry.toolCallId] : undefined))
    .find((call) => call?.status === 'running');
  return runningTool ? `Running ${runningTool.toolName}…` : 'Generating…';
}
