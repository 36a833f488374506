import { FENCE_OPEN, splitByFence } from '../../lib/page-tools/page-fence';

/** One element line of an observation's snapshot: `- button "Submit" [disabled] [ref=e12]`. */
export interface PageTreeElement {
  readonly role: string;
  readonly name: string;
  readonly ref: string | undefined;
  readonly disabled: boolean;
}

const fenceOpenPattern = new RegExp(`<<${FENCE_OPEN} ([0-9a-zA-Z]+)>>`);
const linePattern = /^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?/;
const attributePattern = / \[([a-z-]+)(?:=("(?:[^"\\]|\\.)*"|[^\]"]*))?\]/y;

/** The page's own text inside the fences of a tool result, or undefined when the value holds no fence. */
export function fencedText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const marker = fenceOpenPattern.exec(value)?.[1];
  if (!marker) return undefined;
  const { inside } = splitByFence(value, marker);
  return inside.length > 0 ? inside.join('\n').trim() : undefined;
}

/** The elements of a fenced page tree, read from the lines inside the fence only; text lines are no elements. */
export function pageTreeElements(snapshot: unknown): PageTreeElement[] {
  const text = fencedText(snapshot);
  if (text === undefined) return [];
  return text.split('\n').flatMap((line) => {
    const element = elementOf(line);
    return element ? [element] : [];
  });
}

function elementOf(line: string): PageTreeElement | undefined {
  const head = linePattern.exec(line);
  if (!head || head[1] === 'text') return undefined;
  const attributes = new Map<string, string>();
  attributePattern.lastIndex = head[0].length;
  for (let found = attributePattern.exec(line); found; found = attributePattern.exec(line)) {
    attributes.set(found[1], found[2] ?? '');
  }
  return {
    role: head[1],
    name: unquoted(head[2] ?? ''),
    ref: attributes.get('ref'),
    disabled: attributes.has('disabled'),
  };
}

/** The page tree quotes names like JSON strings; only the escapes it writes are undone. */
function unquoted(quoted: string): string {
  return quoted.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) => {
    if (escape.startsWith('u') && escape.length === 5) return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[escape] ?? escape;
  });
}
