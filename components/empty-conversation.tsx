import { BrandMark } from './icons';
import { ShortcutHint, type PanelShortcut } from './shortcut-hint';

const SUGGESTIONS = [
  'Open the particle field and make the particles faster',
  'Show the velocity vectors and switch to vortex mode',
  'Which targets can you control?',
];

/** A new conversation: what to try. A suggestion fills the message box. */
export function EmptyConversation({
  onSuggest,
  shortcut,
}: {
  onSuggest(text: string): void;
  shortcut?: PanelShortcut;
}) {
  return (
    <section className="empty-conversation" aria-labelledby="empty-title">
      <div className="hero-mark">
        <BrandMark size={24} />
      </div>
      <h2 id="empty-title">What should the model change?</h2>
      <p>It reads a target’s parameters, changes them live in the stage tab, and tells you what it did.</p>
      <ul className="suggestions" aria-label="Suggestions">
        {SUGGESTIONS.map((suggestion) => (
          <li key={suggestion}>
            <button type="button" className="suggestion" onClick={() => onSuggest(suggestion)}>
              {suggestion}
            </button>
          </li>
        ))}
      </ul>
      {shortcut && <ShortcutHint shortcut={shortcut} />}
    </section>
  );
}
