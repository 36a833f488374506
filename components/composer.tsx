import { useState, type FormEvent, type KeyboardEvent } from 'react';

export function Composer({ running, disabled, onSend, onStop }: { running: boolean; disabled: boolean; onSend(text: string): void; onStop(): void }) {
  const [text, setText] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const trimmed = text.trim();
    if (!trimmed || running || disabled) return;
    onSend(trimmed);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
    if (event.key === 'Escape' && running) onStop();
  };
  return (
    <form className="composer" onSubmit={submit}>
      <textarea aria-label="Message" placeholder="Ask the model to change the target…" value={text} rows={2} onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} />
      {running ? (
        <button type="button" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" disabled={disabled || !text.trim()}>
          Send
        </button>
      )}
    </form>
  );
}
