function normalize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** Sessions whose title contains every word of the query, ignoring case and accents; all of them for an empty query. */
export function filterSessions<TSession extends { title: string }>(
  sessions: readonly TSession[],
  query: string,
): TSession[] {
  const words = normalize(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((session) => {
    const title = normalize(session.title);
    return words.every((word) => title.includes(word));
  });
}
