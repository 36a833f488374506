import { useState, type FormEvent } from 'react';
import type { FieldResult } from '@/lib/popup/parameter-outcome';

export interface AddTargetFormProps {
  busy: boolean;
  result?: FieldResult;
  /** Called synchronously from the submit event: the browser asks for host access only inside a user gesture. */
  onAdd(url: string): void;
}

export function AddTargetForm({ busy, result, onAdd }: AddTargetFormProps) {
  const [url, setUrl] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAdd(url);
  };
  return (
    <section className="add-target" aria-labelledby="add-target-title">
      <h2 id="add-target-title">Add a target by URL</h2>
      <p className="hint">
        Your own app serving manifest.json beside its page and including the bridge script, e.g. a dev server on
        localhost.
      </p>
      <form className="add-target-row" onSubmit={submit}>
        <input
          type="text"
          inputMode="url"
          spellCheck={false}
          aria-label="Target URL"
          placeholder="http://localhost:5173/"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Adding…' : 'Add'}
        </button>
      </form>
      {result && (
        <p className={`add-target-result tone-${result.tone}`} role={result.tone === 'error' ? 'alert' : 'status'}>
          {result.message}
        </p>
      )}
    </section>
  );
}
