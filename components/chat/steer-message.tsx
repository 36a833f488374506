import type { CommandState } from '@/lib/state/client-state';
import { usePanelActions } from '../shared/panel-actions';
import { useRuntimeAction } from '../shared/use-runtime-action';

const STATE_LABEL: Record<string, string | undefined> = {
  submitted: 'Sending…',
  accepted: 'Queued',
  queued: 'Queued',
  applied: undefined,
  stale: 'Not applied: the turn had ended',
  rejected: 'Not applied',
};

/**
 * Something the user added while the turn ran: queued until the runtime applies it at a safe point, and
 * withdrawable until then. A withdrawn one goes back to the composer and is no longer part of the turn.
 */
export function SteerMessage({ command }: { command: CommandState }) {
  const actions = usePanelActions();
  const { sending, error, run } = useRuntimeAction();
  if (command.state === 'cancelled') return null;
  const label = STATE_LABEL[command.state];
  return (
    <div className="user-row steer-row" data-command-id={command.commandId} data-state={command.state}>
      <div className="message user-message steer-message">
        {command.text}
        {label && (
          <span className="steer-state">
            {label}
            {command.state === 'queued' && (
              <button
                type="button"
                className="link-button steer-withdraw"
                disabled={sending}
                onClick={() => run(() => actions.withdraw(command))}
              >
                Withdraw
              </button>
            )}
          </span>
        )}
        {error && <span className="request-error steer-error">{error}</span>}
      </div>
    </div>
  );
}
