import { usePanelActions } from '../shared/panel-actions';

export interface PauseBarProps {
  /** The turn runs in this panel and can be paused. */
  running: boolean;
  /** A pause was asked for and waits for the turn's next safe point. */
  pausing: boolean;
  /** The conversation's last turn is paused. */
  paused: boolean;
}

/** Pause a running turn to act on the page yourself; Resume goes on with a fresh look at the page. */
export function PauseBar({ running, pausing, paused }: PauseBarProps) {
  const { pause, resume, stop } = usePanelActions();
  if (paused)
    return (
      <div className="pause-bar" role="status" data-state="paused">
        <span>Paused. Act on the page yourself, then resume: the model will look at the page again first.</span>
        <button type="button" className="button-primary" onClick={resume}>
          Resume
        </button>
        <button type="button" className="button-secondary" onClick={stop}>
          Stop
        </button>
      </div>
    );
  if (!running) return null;
  return (
    <div className="pause-bar" data-state={pausing ? 'pausing' : 'running'}>
      {pausing ? (
        <span role="status">Pausing after the current step…</span>
      ) : (
        <button type="button" className="button-secondary" onClick={pause} title="Pause after the current step">
          Pause
        </button>
      )}
    </div>
  );
}
