import type { SearchHit, SearchResult } from '@/lib/protocol/search-hit';
import { highlightTerms } from '@/lib/panel/highlight-terms';

const KIND_LABELS: Record<SearchHit['kind'], string> = {
  title: 'Title',
  user: 'You',
  assistant: 'Answer',
  tool: 'Tool call',
  page: 'Page',
};

export interface SearchHitsProps {
  result: SearchResult | undefined;
  searching: boolean;
  /** Why the search failed, said in place of results. */
  error?: string;
  /** A conversation the panel may not leave (a reply runs in another one). */
  blockedSessionId?: string;
  onOpen(hit: SearchHit): void;
}

/** What the search found in the conversations' messages, tool calls and pages; a click opens the turn. */
export function SearchHits({ result, searching, error, onOpen, blockedSessionId }: SearchHitsProps) {
  const hits = result?.hits ?? [];
  return (
    <section className="search-hits" aria-label="Found in conversations" aria-busy={searching || undefined}>
      <h3 className="search-hits-head">In messages</h3>
      <ul>
        {hits.map((hit) => (
          <li key={`${hit.sessionId}#${hit.seq}#${hit.kind}`}>
            <button
              type="button"
              className="search-hit"
              disabled={blockedSessionId !== undefined && blockedSessionId !== hit.sessionId}
              onClick={() => onOpen(hit)}
            >
              <span className="search-hit-title">
                {hit.title} <span className="search-hit-kind">{KIND_LABELS[hit.kind]}</span>
              </span>
              <span className="search-hit-snippet">
                {highlightTerms(hit.snippet, hit.terms).map((part, index) =>
                  part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <p className="search-hits-note" role="status">
        {error ? `The search failed: ${error}` : searchNote(result, searching)}
      </p>
    </section>
  );
}

function searchNote(result: SearchResult | undefined, searching: boolean): string {
  if (!result) return searching ? 'Searching…' : '';
  const count = result.hits.length === 0 ? 'Nothing found' : `${result.hits.length} found`;
  const scope =
    result.pending > 0
      ? ` in ${result.conversations} of ${result.conversations + result.pending} conversations so far…`
      : ` in ${result.conversations} conversation${result.conversations === 1 ? '' : 's'}.`;
  return count + scope;
}
