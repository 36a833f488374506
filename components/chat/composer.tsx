import {
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { composerPress } from '@/lib/panel/composer-press';
import type { UploadView } from '@/lib/state/upload-view';
import { AttachmentChip } from '../files/attachment-chip';
import { ResourceMenu } from './resource-menu';
import { AttachIcon, SendIcon, StopIcon } from '../shared/icons';
import { usePanelActions } from '../shared/panel-actions';
import { PROMPT_MENU_ID, PromptMenuList } from './prompt-menu';
import { usePromptMenu } from './use-prompt-menu';

export interface ComposerProps {
  running: boolean;
  /** The conversation's turn is paused: what is sent is added to it, for the model to read on resume. */
  paused?: boolean;
  disabled: boolean;
  /**
   * The conversation's history has not arrived: the model would miss it, so a message sent now goes once it has
   * loaded.
   */
  loading?: boolean;
  /** The conversation in view: a send waiting for its history is dropped (the text kept) when another is opened. */
  conversationId?: string;
  /** Text to put into the box (a suggestion); `nonce` changes each time it is offered. */
  seed?: { text: string; nonce: number };
  /** A message sent from here that could not be recorded: it comes back, ahead of anything typed since. */
  returned?: { text: string; nonce: number };
  /** Files picked, pasted or dropped but not sent yet, in their recorded states. */
  attachments?: UploadView[];
  /** Why the files cannot go to this endpoint (said before sending, never dropped). */
  attachmentRefusal?: string;
}

const ACCEPTED_FILES =
  'image/png,image/jpeg,image/webp,image/gif,application/pdf,text/*,.md,.csv,.json,.ts,.tsx,.js,.py,.txt';

const MAX_HEIGHT_PX = 200;

/** Enter sends, Shift+Enter adds a line, Escape stops a running turn. */
export function Composer({
  running,
  paused = false,
  disabled,
  loading = false,
  conversationId,
  seed,
  returned,
  ...files
}: ComposerProps) {
  const { send, steer, stop, attachFiles, removeAttachment, composing } = usePanelActions();
  const [text, setText] = useState('');
  const menu = usePromptMenu(running ? '' : text, setText);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const attachments = files.attachments ?? [];
  // A message goes only with every file ready: one still reading, or refused, must be removed first.
  const attachmentsBlock = attachments.some((upload) => upload.state !== 'ready') || !!files.attachmentRefusal;
  const canSend = (!!text.trim() || (attachments.length > 0 && !running)) && !attachmentsBlock;
  const addFiles = (list: FileList | null | undefined) => {
    const picked = [...(list ?? [])];
    if (picked.length) attachFiles(picked);
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    if (event.clipboardData.files.length === 0) return;
    event.preventDefault();
    addFiles(event.clipboardData.files);
  };
  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    if (!event.dataTransfer.files.length) return;
    event.preventDefault();
    addFiles(event.dataTransfer.files);
  };

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

  // The conversation a press made while it loaded waits for; the message stays in the box until then.
  const [sendOnLoad, setSendOnLoad] = useState<{ conversationId: string | undefined }>();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const trimmed = text.trim();
    const press = composerPress({ canSend, disabled, loading, running });
    if (press === 'nothing') return;
    if (press === 'send-once-loaded') return setSendOnLoad({ conversationId });
    if (press === 'add-to-turn') steer(trimmed);
    else send(trimmed);
    setText('');
  };
  const loaded = useEffectEvent(() => {
    const waiting = sendOnLoad;
    setSendOnLoad(undefined);
    if (waiting?.conversationId === conversationId) submit();
  });
  useEffect(() => {
    // Sending is what the conversation having loaded sets off; it runs once per press.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (sendOnLoad && !loading) loaded();
  }, [sendOnLoad, loading]);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (menu.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
    if (event.key === 'Escape' && running) {
      event.preventDefault();
      stop();
    }
  };
  return (
    <form className="composer" onSubmit={submit} onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
      {attachments.length > 0 && (
        <ul className="attachment-chips" aria-label="Files to send">
          {attachments.map((upload) => (
            <AttachmentChip key={upload.uploadId} upload={upload} onRemove={removeAttachment} />
          ))}
        </ul>
      )}
      {files.attachmentRefusal && (
        <p className="attachment-refusal" role="alert">
          {files.attachmentRefusal}
        </p>
      )}
      <PromptMenuList menu={menu} />
      <div className="composer-box" data-disabled={disabled || undefined}>
        <button
          type="button"
          className="composer-button attach-button"
          aria-label="Attach files"
          title="Attach files"
          disabled={disabled}
          onClick={() => fileInputRef.current?.click()}
        >
          <AttachIcon />
        </button>
        <ResourceMenu disabled={disabled} />
        <input
          ref={fileInputRef}
          type="file"
          multiple
          hidden
          accept={ACCEPTED_FILES}
          aria-label="Files to attach"
          onChange={(event) => {
            addFiles(event.target.files);
            event.target.value = '';
          }}
        />
        <textarea
          ref={textareaRef}
          aria-label="Message"
          aria-describedby="composer-hint"
          {...(menu.suggestions.length > 0
            ? { 'aria-controls': PROMPT_MENU_ID, 'aria-activedescendant': `${PROMPT_MENU_ID}-${menu.active}` }
            : {})}
          placeholder={
            disabled
              ? 'Configure an endpoint to start'
              : loading
                ? 'Loading the conversation…'
                : running || paused
                  ? 'Add to this turn…'
                  : 'Ask the model to change a target or act on the page…'
          }
          value={text}
          rows={1}
          disabled={disabled}
          // `input`, not React's `onChange`: React drops an `input` event whose value was set through the `value`
          // property (dictation and text-expander tools, Puppeteer's fill of 100 characters or more), and Send then
          // stayed disabled with the text in the box.
          onInput={(event) => {
            setText(event.currentTarget.value);
            composing();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {running && (
          <button type="button" className="composer-button stop-button" onClick={stop} title="Stop (Esc)">
            <StopIcon />
            <span className="visually-hidden">Stop</span>
          </button>
        )}
        {(!running || text.trim()) && (
          <button
            type="submit"
            className="composer-button send-button"
            disabled={disabled || !canSend}
            title={
              running
                ? 'Add to this turn (Enter)'
                : loading
                  ? 'Send once the conversation has loaded (Enter)'
                  : 'Send (Enter)'
            }
          >
            <SendIcon />
            <span className="visually-hidden">Send</span>
          </button>
        )}
      </div>
      <p id="composer-hint" className="composer-hint">
        {running
          ? 'Enter adds to this turn · Esc to stop'
          : sendOnLoad
            ? 'Sends once the conversation has loaded'
            : paused
              ? 'Enter adds to the paused turn: the model reads it on resume'
              : menu.suggestions.length > 0
                ? '↑↓ to choose a prompt · Enter or Tab to take it · Esc to close'
                : 'Enter to send · Shift+Enter for a new line'}
      </p>
    </form>
  );
}
