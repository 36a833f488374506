import { parse, parseExpressionAt, tokenizer, type Node, type Options, type Program, type Statement } from 'acorn';
import { errorText } from '../protocol/error-text';

/** The variable the rewritten body keeps its completion value in; the worker's prelude declares it. */
export const COMPLETION_VARIABLE = '__completion';
/**
 * What `import(…)` becomes: the prelude's function that refuses it. Chromium lets a sandboxed extension page (and
 * its workers) load the extension's own files past every CSP, so a dynamic import would run the extension's code.
 */
export const BLOCKED_IMPORT = '__blockedImport';

interface Edit {
  start: number;
  end: number;
  text: string;
}

const PARSE_OPTIONS: Options = {
  ecmaVersion: 'latest',
  sourceType: 'script',
  allowAwaitOutsideFunction: true,
  allowReturnOutsideFunction: true,
  // A statement's expression then spans its parentheses, so `({ a: 1 });` is rewritten as a whole.
  preserveParens: true,
};

/** Statements whose completion is empty: after them a script's value is still the one before them. */
const EMPTY_COMPLETION = new Set(['EmptyStatement', 'FunctionDeclaration', 'ClassDeclaration', 'VariableDeclaration']);

export type ScriptBody = { ok: true; body: string } | { ok: false; error: string };

/**
 * The code as the body of an async function whose result is the script's value, as a console gives it: what it
 * `return`s, else the value of its last expression statement (declarations after it do not change it), else
 * nothing. Code that is one expression as a whole (`{ a: 1 }` too) is that expression's value. Top-level `await`
 * stays valid: the body runs in an async function.
 */
export function scriptBody(code: string): ScriptBody {
  const whole = wholeExpression(code);
  if (whole)
    return {
      ok: true,
      body: applyEdits(code, [
        { start: 0, end: 0, text: 'return (\n' },
        ...importEdits(whole),
        { start: whole.end, end: whole.end, text: '\n);' },
      ]),
    };
  let program: Program;
  try {
    program = parse(code, PARSE_OPTIONS);
  } catch (error) {
    return { ok: false, error: `SyntaxError: ${errorText(error)}` };
  }
  const edits = importEdits(program);
  const last = lastValueStatement(program);
  if (last?.type === 'ExpressionStatement')
    edits.push(
      { start: last.expression.start, end: last.expression.start, text: `${COMPLETION_VARIABLE} = (` },
      { start: last.expression.end, end: last.end, text: ');' },
      { start: code.length, end: code.length, text: `\nreturn ${COMPLETION_VARIABLE};` },
    );
  return { ok: true, body: applyEdits(code, edits) };
}

/** Every `import(…)`'s keyword, to be replaced by the function that refuses it. */
function importEdits(root: Node): Edit[] {
  const edits: Edit[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object' || typeof (value as Node).type !== 'string') return;
    const node = value as Node;
    if (node.type === 'ImportExpression')
      edits.push({ start: node.start, end: node.start + 'import'.length, text: BLOCKED_IMPORT });
    for (const [key, child] of Object.entries(node)) if (key !== 'loc') visit(child);
  };
  visit(root);
  return edits;
}

/**
 * Applies edits that do not overlap, from the last: an insertion at a position goes before a replacement there,
 * and insertions at one position keep their order.
 */
function applyEdits(code: string, edits: Edit[]): string {
  const order = edits.map((edit, index) => ({ edit, index }));
  order.sort(
    (left, right) => right.edit.start - left.edit.start || right.edit.end - left.edit.end || right.index - left.index,
  );
  let text = code;
  for (const { edit } of order) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

function lastValueStatement(program: Program): Statement | undefined {
  for (let index = program.body.length - 1; index >= 0; index--) {
    const statement = program.body[index] as Statement;
    if (!EMPTY_COMPLETION.has(statement.type)) return statement;
  }
  return undefined;
}

/** Code that starts with `{` is read as an object first, as a console does; `{ a: 1 }` would be a block otherwise. */
function wholeExpression(code: string): Node | undefined {
  if (!code.trimStart().startsWith('{')) return undefined;
  try {
    const expression = parseExpressionAt(code, 0, PARSE_OPTIONS);
    return onlyCommentsAfter(code, expression.end) ? expression : undefined;
  } catch {
    return undefined;
  }
}

function onlyCommentsAfter(code: string, position: number): boolean {
  const rest = code.slice(position).replace(/^\s*;?/, '');
  try {
    return tokenizer(rest, PARSE_OPTIONS).getToken().type.label === 'eof';
  } catch {
    return false;
  }
}
