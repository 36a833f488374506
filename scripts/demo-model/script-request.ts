/** A script the demo can honestly write for a request, or a note that it cannot; undefined when none is asked for. */
export type ScriptRequest = { readonly kind: 'script'; readonly code: string } | { readonly kind: 'unsupported' };

const scriptPattern =
  /^\s*(?:please\s+)?(?:run|execute|evaluate|compute|calculate|work out)\b|\bscript\b|\badd up\b|\bsum of\b|\bsquares of\b/i;
const givenCodePattern = /^\s*(?:please\s+)?(?:run|execute|evaluate)\b[^:`]*(?::\s*([\s\S]+)|`([^`]+)`)/i;
const sumPattern =
  /\b(?:add up|sum(?: of| up)?|total of)\s+(?:the\s+)?(?:numbers\s+|integers\s+)?(?:from\s+)?(-?\d+)\s*(?:to|through|-)\s*(-?\d+)\b/i;
const squaresPattern = /\bsquares of\s+(?:the\s+)?(?:numbers\s+)?(?:from\s+)?(-?\d+)\s*(?:to|through|-)\s*(-?\d+)\b/i;
const maxSumSpan = 10_000_000;
const maxSquares = 1000;

export function scriptRequestOf(request: string): ScriptRequest | undefined {
  if (!scriptPattern.test(request)) return undefined;
  const given = givenCodePattern.exec(request);
  const code = (given?.[1] ?? given?.[2])?.trim().replace(/^`+|`+$/g, '');
  if (code) return { kind: 'script', code };
  const sum = rangeOf(sumPattern.exec(request), maxSumSpan);
  if (sum)
    return {
      kind: 'script',
      code: `let sum = 0;\nfor (let n = ${sum.from}; n <= ${sum.to}; n += 1) sum += n;\nreturn sum;`,
    };
  const squares = rangeOf(squaresPattern.exec(request), maxSquares);
  if (squares) {
    return {
      kind: 'script',
      code: `return Array.from({ length: ${squares.to - squares.from + 1} }, (_, index) => (${squares.from} + index) ** 2);`,
    };
  }
  return { kind: 'unsupported' };
}

function rangeOf(found: RegExpExecArray | null, maxSpan: number): { from: number; to: number } | undefined {
  if (!found) return undefined;
  const from = Number(found[1]);
  const to = Number(found[2]);
  return to >= from && to - from < maxSpan ? { from, to } : undefined;
}
