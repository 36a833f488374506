/** Markdown for one fenced code block holding `text` as it is: the fence is longer than any backtick run inside. */
export function codeFence(language: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}
