import type { AgentEvent } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { FENCE_CLOSE, FENCE_OPEN } from '../page-tools/page-fence';
import type { SearchDocument, SearchKind } from '../protocol/search-shard-row';

export type { SearchDocument, SearchKind };

/** Longer texts are indexed by their beginning: a search finds a message by what it says, not by a pasted log. */
export const MAX_INDEXED_CHARACTERS = 4_000;

/** The texts of one durable event that a search finds: titles, messages, tool names and inputs, page titles. */
export function searchDocumentsOf(event: AgentEvent): SearchDocument[] {
  const turnId = 'turnId' in event && typeof event.turnId === 'string' ? event.turnId : undefined;
  const document = (kind: SearchKind, text: string, place = 0): SearchDocument => ({
    id: `${event.seq}.${place}`,
    seq: event.seq,
    ...(turnId ? { turnId } : {}),
    kind,
    text: text.slice(0, MAX_INDEXED_CHARACTERS),
  });
  switch (event.type) {
    case 'session/created':
    case 'session/renamed':
      return [document('title', event.data.title)];
    case 'turn/started':
      return [document('user', event.data.text)];
    case 'assistant/completed':
      return [document('assistant', event.data.text)];
    case 'tool/requested':
      return [document('tool', `${event.data.toolName} ${inputText(event.data.input)}`)];
    case 'tool/completed': {
      const page = pageOf(event.data.output);
      return page ? [document('page', `${page.title} ${page.url}`)] : [];
    }
    default:
      return [];
  }
}

function inputText(input: JsonValue): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** An observation's title and address: the page the call looked at, its title taken out of the page fence. */
function pageOf(output: JsonValue): { title: string; url: string } | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  const { url, title } = output;
  if (typeof url !== 'string' || typeof title !== 'string' || typeof output.observationId !== 'string')
    return undefined;
  return { url, title: unfenced(title) };
}

const FENCE_LINE = new RegExp(`^<<(?:${FENCE_OPEN}|${FENCE_CLOSE}) [0-9a-zA-Z]+>>$`, 'gm');

function unfenced(text: string): string {
  return text.replace(FENCE_LINE, '').trim();
}
