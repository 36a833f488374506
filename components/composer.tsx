import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { SendIcon, StopIcon } from './icons';

export interface ComposerProps {
  running: boolean;
  disabled: boolean;
  /** The conversation's history has not arrived: typing is fine, sending is not (the model would miss the history). */
  loading?: boolean;
  /** Text to put into the box (a suggestion); `nonce` changes each time it is offered. */
  seed?: { text: string; nonce: number };
  /** A message sent from here that could not be recorded: it comes back, ahead of anything typed since. */
  returned?: { text: string; nonce: number };
  onSend(text: string): void;
  /** While a turn runs, what the user types is added to it (queued until a safe point). */
  onSteer(text: string): void;
  onStop(): void;
}

const MAX_HEIGHT_PX = 200;

/** Enter sends, Shift+Enter adds a line, Escape stops a running turn. */
export function Composer({
  running,
  disabled,
  loading = false,
  seed,
  returned,
  onSend,
  onSteer,
  onStop,
}: ComposerProps) {
  const [text, setText] = useState('');
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  // A new seed or returned text changes the text during render (React's "adjusting state when a prop changes"),
  // so the box never shows a frame without it.
  const [seenSeed, setSeenSeed] = useState<typeof seed>();
  if (seed !== seenSeed) {
    setSeenSeed(seed);
    if (seed) setText(seed.text);
  }
  const [seenReturned, setSeenReturned] = useState<typeof returned>();
  if (returned !== seenReturned) {
    setSeenReturned(returned);
    if (returned) setText((current) => (current.trim() ? `${returned.text}\n\n${current}` : returned.text));
  }
  useEffect(() => {
    if (seed) textareaRef.current?.focus();
  }, [seed]);
  useEffect(() => {
    if (returned) textareaRef.current?.focus();
  }, [returned]);

  useLayoutEffect(() => {
    const textarea = textareaRef.current;
    if (!textarea) return;
    textarea.style.height = 'auto';
    textarea.style.height = `${Math.min(textarea.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const trimmed = text.trim();
    if (!trimmed || disabled || loading) return;
    if (running) onSteer(trimmed);
    else onSend(trimmed);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
    if (event.key === 'Escape' && running) {
      event.preventDefault();
      onStop();
    }
  };
  return (
    <form className="composer" onSubmit={submit}>
      <div className="composer-box" data-disabled={disabled || undefined}>
        <textarea
          ref={textareaRef}
          aria-label="Message"
          aria-describedby="composer-hint"
          placeholder={
            disabled
              ? 'Configure an endpoint to start'
              : loading
                ? 'Loading the conversation…'
                : running
                  ? 'Add to this turn…'
                  : 'Ask the model to change a target…'
          }
          value={text}
          rows={1}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {running && (
          <button type="button" className="composer-button stop-button" onClick={onStop} title="Stop (Esc)">
            <StopIcon />
            <span className="visually-hidden">Stop</span>
          </button>
        )}
        {(!running || text.trim()) && (
          <button
            type="submit"
            className="composer-button send-button"
            disabled={disabled || loading || !text.trim()}
            title={running ? 'Add to this turn (Enter)' : 'Send (Enter)'}
          >
            <SendIcon />
            <span className="visually-hidden">Send</span>
          </button>
        )}
      </div>
      <p id="composer-hint" className="composer-hint">
        {running ? 'Enter adds to this turn · Esc to stop' : 'Enter to send · Shift+Enter for a new line'}
      </p>
    </form>
  );
}
