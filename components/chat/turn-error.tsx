import { errorAdvice } from '@/lib/panel/error-advice';
import { AlertIcon } from '../shared/icons';
import { usePanelActions } from '../shared/panel-actions';

/** A model or transport error: what happened and what to do, with the raw message as detail. */
export function TurnError({ message }: { message: string }) {
  const { openOptions } = usePanelActions();
  const advice = errorAdvice(message);
  return (
    <div className="turn-error" role="alert">
      <span className="turn-error-icon">
        <AlertIcon />
      </span>
      <div className="turn-error-body">
        <strong>{advice.title}</strong>
        <p>{advice.action}</p>
        <details>
          <summary>Details</summary>
          <code>{message}</code>
        </details>
        {advice.settings && (
          <button type="button" className="link-button" onClick={openOptions}>
            Open settings
          </button>
        )}
      </div>
    </div>
  );
}
