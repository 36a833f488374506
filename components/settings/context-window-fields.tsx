import { contextWindowOf, DEFAULT_WINDOW_TOKENS, type ContextWindowSource } from '@/lib/context/context-window';
import { settingsFromDraft, type EndpointDraft } from '@/lib/settings/endpoint-draft';

/** What the model list said: the names, and the context lengths of those whose entry gives one. */
export interface ListedModels {
  models: string[];
  contextWindows?: Record<string, number>;
}

export interface ContextWindowFieldsProps {
  draft: EndpointDraft;
  onChange(change: Partial<EndpointDraft>): void;
  /** The window the endpoint's model list gave for the draft's model, used when the field is left empty. */
  listedWindow: number | undefined;
}

const sourceText: Record<ContextWindowSource, string> = {
  profile: 'as set here',
  'known-model': 'known for this model',
  default: `a guess (${DEFAULT_WINDOW_TOKENS.toLocaleString('en-US')}): set the window your server runs with`,
};

/** The context window and output reserve of a profile: empty fields take the endpoint's list, then the known table. */
export function ContextWindowFields({ draft, onChange, listedWindow }: ContextWindowFieldsProps) {
  const parsed = settingsFromDraft(draft);
  const window = parsed.ok
    ? contextWindowOf({
        ...parsed.settings,
        ...(parsed.settings.contextWindowTokens === undefined && listedWindow
          ? { contextWindowTokens: listedWindow }
          : {}),
      })
    : undefined;
  const source =
    window && draft.contextWindow.trim() === '' && listedWindow
      ? 'listed by the endpoint'
      : window && sourceText[window.source];
  return (
    <>
      <label>
        Context window (tokens)
        <input
          aria-label="Context window"
          inputMode="numeric"
          value={draft.contextWindow}
          onInput={(event) => onChange({ contextWindow: event.currentTarget.value })}
          placeholder={window ? String(window.windowTokens) : ''}
        />
      </label>
      <label>
        Output reserve (tokens)
        <input
          aria-label="Output reserve"
          inputMode="numeric"
          value={draft.outputReserve}
          onInput={(event) => onChange({ outputReserve: event.currentTarget.value })}
          placeholder={window ? String(window.reserveTokens) : ''}
        />
      </label>
      {window && (
        <p className="hint" data-testid="context-window-hint">
          Requests are kept under {(window.windowTokens - window.reserveTokens).toLocaleString('en-US')} tokens: a
          window of {window.windowTokens.toLocaleString('en-US')} ({source}) less{' '}
          {window.reserveTokens.toLocaleString('en-US')} kept for the answer. Earlier turns are summarised before a
          request would pass it.
        </p>
      )}
    </>
  );
}
