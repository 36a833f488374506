import type { CommandState } from '@/lib/state/client-state';

const STATE_LABEL: Record<string, string | undefined> = {
  submitted: 'Sending…',
  accepted: 'Queued',
  queued: 'Queued',
  applied: undefined,
  stale: 'Not applied: the turn had ended',
  rejected: 'Not applied',
  cancelled: 'Withdrawn',
};

/** Something the user added while the turn ran: queued until the runtime applies it at a safe point. */
export function SteerMessage({ command }: { command: CommandState }) {
  const label = STATE_LABEL[command.state];
  return (
    <div className="user-row steer-row" data-command-id={command.commandId} data-state={command.state}>
      <div className="message user-message steer-message">
        {command.text}
        {label && <span className="steer-state">{label}</span>}
      </div>
    </div>
  );
}
