import type { ClientState, TurnState } from '@/lib/state/client-state';
import { ToolCallCard } from './tool-call-card';

const TURN_STATUS: Record<TurnState['status'], string> = {
  running: 'Generating…',
  completed: '',
  aborted: 'Stopped',
  interrupted: 'Interrupted',
};

export function TurnView({ state, turn, canRetry, onRetry }: { state: ClientState; turn: TurnState; canRetry: boolean; onRetry(turnId: string): void }) {
  const retryable = canRetry && (turn.status === 'interrupted' || turn.status === 'aborted');
  return (
    <article className="turn" data-turn-id={turn.turnId} data-status={turn.status}>
      {turn.retryOf && <div className="turn-status">Retry of an interrupted turn</div>}
      <div className="message user-message">{turn.userText}</div>
      {turn.entries.map((entry) => {
        if (entry.kind === 'tool') {
          const call = state.toolCalls[entry.toolCallId];
          return call ? <ToolCallCard key={entry.toolCallId} call={call} /> : null;
        }
        if (entry.kind === 'error') {
          const error = turn.errors[entry.index];
          return error ? (
            <div key={`error-${entry.index}`} className="message error-message" role="alert">
              {error.message}
            </div>
          ) : null;
        }
        const item = state.items[entry.key];
        if (!item || !item.text) return null;
        return (
          <div key={entry.key} className={`message ${item.kind}-message item-${item.status}`} data-item-status={item.status}>
            {item.text}
            {item.status === 'interrupted' && <span className="item-badge"> (interrupted)</span>}
          </div>
        );
      })}
      {turn.retry && <div className="turn-status">Retrying at {new Date(turn.retry.until).toLocaleTimeString()}…</div>}
      {TURN_STATUS[turn.status] && (
        <div className="turn-status" data-turn-status={turn.status}>
          {TURN_STATUS[turn.status]}
          {turn.reason && turn.status !== 'running' ? `: ${turn.reason}` : ''}
        </div>
      )}
      {retryable && (
        <button type="button" className="retry-button" onClick={() => onRetry(turn.turnId)}>
          Retry
        </button>
      )}
    </article>
  );
}
