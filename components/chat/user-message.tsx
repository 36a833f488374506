import { useState, type KeyboardEvent } from 'react';
import { EditIcon } from '../shared/icons';

export interface UserMessageProps {
  text: string;
  canEdit: boolean;
  onResend(text: string): void;
}

/** The user's message; it can be edited and sent again as a new turn. */
export function UserMessage({ text, canEdit, onResend }: UserMessageProps) {
  const [draft, setDraft] = useState<string>();
  if (draft === undefined) {
    return (
      <div className="user-row">
        {canEdit && (
          <button
            type="button"
            className="icon-button edit-button"
            aria-label="Edit and resend"
            title="Edit and resend"
            onClick={() => setDraft(text)}
          >
            <EditIcon />
          </button>
        )}
        <div className="message user-message">{text}</div>
      </div>
    );
  }
  const resend = () => {
    const trimmed = draft.trim();
    if (!trimmed || !canEdit) return;
    setDraft(undefined);
    onResend(trimmed);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      resend();
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setDraft(undefined);
    }
  };
  return (
    <div className="user-edit">
      <textarea
        aria-label="Edit message"
        value={draft}
        rows={Math.min(8, draft.split('\n').length + 1)}
        autoFocus
        onInput={(event) => setDraft(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <div className="user-edit-actions">
        <button type="button" className="button-quiet" onClick={() => setDraft(undefined)}>
          Cancel
        </button>
        <button type="button" className="button-primary" disabled={!canEdit || !draft.trim()} onClick={resend}>
          Resend
        </button>
      </div>
    </div>
  );
}
