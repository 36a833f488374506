/** What a request asks of the web page in front: to click something by name, or to say what is on it. */
export type PageRequest =
  | { readonly kind: 'click'; readonly words: readonly string[]; readonly role: string | undefined }
  | { readonly kind: 'describe' };

const clickPattern = /^\s*(?:please\s+)?(?:click|press|tap|push|hit)\s+(?:on\s+)?(.+?)[\s.!?]*$/i;
const describePattern = /\b(what(?:'s| is| do you see)|describe|summari[sz]e|read)\b.*\b(?:this|the) (?:web ?)?page\b/i;
const pagePhrase = /\s+(?:on|in) (?:this|the) (?:web ?)?page\b/i;
const roleWords: Record<string, string> = {
  button: 'button',
  link: 'link',
  tab: 'tab',
  checkbox: 'checkbox',
  box: 'checkbox',
  switch: 'switch',
  option: 'option',
};
const fillerWords = new Set(['the', 'a', 'an', 'that', 'this', 'one', 'called', 'named', 'labelled', 'labeled']);

export function pageRequestOf(request: string): PageRequest | undefined {
  if (describePattern.test(request)) return { kind: 'describe' };
  const click = clickPattern.exec(request.replace(pagePhrase, ''));
  if (!click) return undefined;
  const words = click[1]
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && !fillerWords.has(word));
  const role = words.map((word) => roleWords[word]).findLast((found) => found !== undefined);
  const named = words.filter((word) => roleWords[word] === undefined);
  return { kind: 'click', words: named.length > 0 ? named : words, role };
}

/** Lower-case words of an accessible name, as the request's words are split. */
export function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}
