import { useEffect, useRef, useState } from 'react';
import type { RewindMode } from '@/lib/protocol/rewind-events';
import type { NotUndone, RewindPreview } from '@/lib/protocol/rewind-preview';
import { usePanelActions } from '../shared/panel-actions';

const MODES: { mode: RewindMode; label: string }[] = [
  { mode: 'conversation', label: 'Conversation only' },
  { mode: 'values', label: 'Conversation and target values' },
  { mode: 'versions', label: 'Conversation, target values and authored-target versions' },
];

const KIND_LABEL: Record<NotUndone['kind'], string> = {
  'page-action': 'Page action',
  download: 'Download',
  upload: 'Upload',
  'external-tool': 'External tool',
  job: 'Job run',
};

function valueLines(preview: RewindPreview): string[] {
  return preview.values.map(
    ({ targetId, values }) =>
      `${targetId}: ${Object.entries(values)
        .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
        .join(', ')}`,
  );
}

/** Where the values of then come from, and what is not known: said whenever values are restored. */
function toolbarNote({ toolbar }: RewindPreview): string {
  const after =
    toolbar.changesAfter > 0
      ? ` (${toolbar.changesAfter === 1 ? 'a change' : `${toolbar.changesAfter} changes`} from the toolbar since this point ${toolbar.changesAfter === 1 ? 'goes' : 'go'} back too)`
      : '';
  const kept =
    toolbar.keptSince !== undefined
      ? ` The toolbar's changes before ${new Date(toolbar.keptSince).toLocaleString()} are no longer kept: a value set there before then is not known.`
      : '';
  return `Counted: what this conversation read, set or reset, and what you changed from the toolbar${after}. A change made in another conversation is not known here.${kept}`;
}

/** The rewind confirmation: the mode the user picks, what it restores, and what stays done in the world. */
export function RewindDialog({ turnId, onClose }: { turnId: string; onClose(): void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { previewRewind, rewind } = usePanelActions();
  const [preview, setPreview] = useState<RewindPreview>();
  const [error, setError] = useState<string>();
  const [mode, setMode] = useState<RewindMode>('conversation');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    dialogRef.current?.showModal();
    previewRewind(turnId).then(setPreview, (reason: unknown) => setError(String(reason)));
  }, [previewRewind, turnId]);
  const confirm = () => {
    setBusy(true);
    void rewind(turnId, mode).then((failed) => {
      setBusy(false);
      if (failed) setError(failed);
      else dialogRef.current?.close();
    });
  };
  const restoresValues = mode !== 'conversation';
  return (
    <dialog ref={dialogRef} className="rewind-dialog" aria-label="Rewind to this message" onClose={onClose}>
      <h2>Rewind to before this message</h2>
      {!preview && !error && <p aria-busy="true">Reading the log…</p>}
      {preview && (
        <>
          <p>
            The conversation goes back to just before this message. The turns from here on ({preview.laterTurns}) stay
            on their own branch: nothing is deleted.
          </p>
          <fieldset className="rewind-modes">
            <legend>Restore</legend>
            {MODES.map((option) => (
              <label key={option.mode}>
                <input
                  type="radio"
                  name="rewind-mode"
                  value={option.mode}
                  checked={mode === option.mode}
                  onChange={() => setMode(option.mode)}
                />
                {option.label}
              </label>
            ))}
          </fieldset>
          {restoresValues && (
            <section aria-label="Target values restored">
              <h3>Target values restored</h3>
              {preview.values.length === 0 ? <p>None changed after this point.</p> : null}
              <ul>
                {valueLines(preview).map((line) => (
                  <li key={line}>{line}</li>
                ))}
                {preview.unknownValues.map(({ targetId, params }) => (
                  <li key={targetId}>
                    {targetId}: {params.join(', ')} stay as they are (no value of then in the log)
                  </li>
                ))}
              </ul>
              <p className="rewind-note">{toolbarNote(preview)}</p>
            </section>
          )}
          {mode === 'versions' && (
            <section aria-label="Authored-target versions restored">
              <h3>Authored-target versions</h3>
              {preview.versions.length === 0 && preview.createdAfter.length === 0 ? <p>None changed.</p> : null}
              <ul>
                {preview.versions.map(({ artifactId, version, current }) => (
                  <li key={artifactId}>
                    {artifactId}: version {version} becomes current again (as a new version after {current})
                  </li>
                ))}
                {preview.createdAfter.map((artifactId) => (
                  <li key={artifactId}>{artifactId}: made after this point, stays</li>
                ))}
              </ul>
            </section>
          )}
          <section aria-label="Not undone">
            <h3>Not undone</h3>
            {preview.notUndone.length === 0 ? (
              <p>Nothing outside the conversation happened after this point.</p>
            ) : (
              <ul className="rewind-not-undone">
                {preview.notUndone.map((effect, index) => (
                  <li key={`${effect.toolCallId}-${index}`} data-kind={effect.kind}>
                    {KIND_LABEL[effect.kind]}: {effect.toolName}
                    {effect.detail ? ` (${effect.detail})` : ''}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      {error && (
        <p className="rewind-error" role="alert">
          {error}
        </p>
      )}
      <div className="rewind-buttons">
        <button type="button" className="button-quiet" onClick={() => dialogRef.current?.close()}>
          Cancel
        </button>
        <button type="button" className="button-primary" disabled={!preview || busy} onClick={confirm}>
          Rewind
        </button>
      </div>
    </dialog>
  );
}
