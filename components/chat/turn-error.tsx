import { errorAdvice } from '@/lib/panel/error-advice';
import { AlertIcon, RetryIcon } from '../shared/icons';
import { usePanelActions } from '../shared/panel-actions';

/**
 * A model or transport error: what happened and what to do, with the raw message as detail. `onRetryStep` is given
 * when the turn ended in this failed model request and may run it again (Retry step).
 */
export function TurnError({ message, onRetryStep }: { message: string; onRetryStep?: () => void }) {
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
        {onRetryStep && (
          <button
            type="button"
            className="button-secondary retry-step-button"
            title="Ask the model again from the last step that completed; its tool calls do not run again"
            onClick={onRetryStep}
          >
            <RetryIcon /> Retry step
          </button>
        )}
      </div>
    </div>
  );
}
