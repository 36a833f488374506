function editDistance(left: string, right: string): number {
  const previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    let diagonal = previous[0];
    previous[0] = row;
    for (let column = 1; column <= right.length; column++) {
      const above = previous[column];
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      previous[column] = Math.min(previous[column] + 1, previous[column - 1] + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[right.length];
}

/** Names ordered by closeness to `wanted`; substring matches count as close. */
export function closestNames(wanted: string, candidates: readonly string[], limit = 3): string[] {
  const normalized = wanted.toLowerCase();
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const contains = lower.includes(normalized) || normalized.includes(lower);
      return { candidate, score: contains ? 0 : editDistance(normalized, lower) };
    })
    .filter(({ candidate, score }) => score <= Math.max(2, Math.ceil(candidate.length / 2)))
    .sort((left, right) => left.score - right.score || left.candidate.localeCompare(right.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
