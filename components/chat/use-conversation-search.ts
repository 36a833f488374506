import { useEffect, useState } from 'react';
import type { SearchResult } from '@/lib/protocol/search-hit';

export type ConversationSearcher = (query: string) => Promise<SearchResult>;

const TYPING_PAUSE_MS = 200;
const SHORTEST_QUERY = 2;

/**
 * The search of what the box says, once typing pauses; while the runtime still loads indexes (`pending`), it asks
 * again until every conversation is searched. An answer to an older query is never shown for a newer one.
 */
export function useConversationSearch(
  search: ConversationSearcher | undefined,
  query: string,
): { active: boolean; searching: boolean; result: SearchResult | undefined; error: string | undefined } {
  const wanted = query.trim();
  const active = search !== undefined && wanted.length >= SHORTEST_QUERY;
  const [answer, setAnswer] = useState<{ query: string; result?: SearchResult; error?: string }>();
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    if (!active) return;
    let current = true;
    const ask = async () => {
      setSearching(true);
      try {
        for (;;) {
          const result = await search(wanted);
          if (!current) return;
          setAnswer({ query: wanted, result });
          if (result.pending === 0) return;
        }
      } catch (error) {
        if (current) setAnswer({ query: wanted, error: error instanceof Error ? error.message : String(error) });
      } finally {
        if (current) setSearching(false);
      }
    };
    const timer = setTimeout(() => void ask(), TYPING_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [active, search, wanted]);
  const shown = answer?.query === wanted ? answer : undefined;
  return { active, searching, result: shown?.result, error: shown?.error };
}
