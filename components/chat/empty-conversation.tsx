import type { PageSuggestion } from '@/lib/panel/page-suggestion';
import { BrandMark } from '../shared/icons';
import { ShortcutHint, type PanelShortcut } from './shortcut-hint';

const TARGET_SUGGESTIONS = [
  'Open the particle field and make the particles faster',
  'Show the velocity vectors and switch to vortex mode',
  'Which targets can you control?',
];

/** A new conversation: what to try, on the targets and on the page in front. A suggestion fills the message box. */
export function EmptyConversation({
  onSuggest,
  pageSuggestion,
  shortcut,
}: {
  onSuggest(text: string): void;
  /** A task for the page in front, or why there is none; undefined while the page is not known. */
  pageSuggestion?: PageSuggestion;
  shortcut?: PanelShortcut;
}) {
  const suggestions =
    pageSuggestion?.kind === 'task' ? [...TARGET_SUGGESTIONS, pageSuggestion.text] : TARGET_SUGGESTIONS;
  return (
    <section className="empty-conversation" aria-labelledby="empty-title">
      <div className="hero-mark">
        <BrandMark size={24} />
      </div>
      <h2 id="empty-title">What should the model do?</h2>
      <p>
        It changes a target’s parameters live in the stage tab, or reads and acts on the page in front, and tells you
        what it did.
      </p>
      <ul className="suggestions" aria-label="Suggestions">
        {suggestions.map((suggestion) => (
          <li key={suggestion}>
            <button type="button" className="suggestion" onClick={() => onSuggest(suggestion)}>
              {suggestion}
            </button>
          </li>
        ))}
      </ul>
      {pageSuggestion?.kind === 'none' && <p className="page-suggestion-none">{pageSuggestion.note}</p>}
      {shortcut && <ShortcutHint shortcut={shortcut} />}
    </section>
  );
}
