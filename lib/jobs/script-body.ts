import { parse, parseExpressionAt, tokenizer, type Options, type Program, type Statement } from 'acorn';

/** The variable the rewritten body keeps its completion value in; the worker's prelude declares it. */
export const COMPLETION_VARIABLE = '__completion';

const PARSE_OPTIONS: Options = {
  ecmaVersion: 'latest',
  sourceType: 'script',
  allowAwaitOutsideFunction: true,
  allowReturnOutsideFunction: true,
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
  if (whole) return { ok: true, body: `return (\n${code.slice(0, whole.end)}\n);${code.slice(whole.end)}` };
  let program: Program;
  try {
    program = parse(code, PARSE_OPTIONS);
  } catch (error) {
    return { ok: false, error: `SyntaxError: ${error instanceof Error ? error.message : String(error)}` };
  }
  const last = lastValueStatement(program);
  if (last?.type !== 'ExpressionStatement') return { ok: true, body: code };
  const { expression } = last;
  return {
    ok: true,
    body: `${code.slice(0, last.start)}${COMPLETION_VARIABLE} = (${code.slice(expression.start, expression.end)});${code.slice(last.end)}\nreturn ${COMPLETION_VARIABLE};`,
  };
}

function lastValueStatement(program: Program): Statement | undefined {
  for (let index = program.body.length - 1; index >= 0; index--) {
    const statement = program.body[index] as Statement;
    if (!EMPTY_COMPLETION.has(statement.type)) return statement;
  }
  return undefined;
}

/** Code that starts with `{` is read as an object first, as a console does; `{ a: 1 }` would be a block otherwise. */
function wholeExpression(code: string): { end: number } | undefined {
  if (!code.trimStart().startsWith('{')) return undefined;
  try {
    const expression = parseExpressionAt(code, 0, PARSE_OPTIONS);
    return onlyCommentsAfter(code, expression.end) ? { end: expression.end } : undefined;
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
