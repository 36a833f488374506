import type { JsonValue } from '../protocol/json-value';

/**
 * The worker's prelude: console writes are batched into `output` messages, the code's value becomes `result`
 * (as JSON), a throw or rejection becomes `error`. The code is inlined, not evaluated: the sandbox's CSP
 * allows no eval, and a worker made from a blob is all it needs.
 */
function prelude(input: JsonValue): string {
  return `
const __post = self.postMessage.bind(self);
let __pending = "";
const __flush = () => { if (__pending !== "") { __post({ kind: "output", text: __pending }); __pending = ""; } };
const __format = (value) => {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack || String(value);
  try { const text = JSON.stringify(value); return text === undefined ? String(value) : text; } catch { return String(value); }
};
const __write = (...values) => { __pending += values.map(__format).join(" ") + "\\n"; if (__pending.length >= 65536) __flush(); };
setInterval(__flush, 50);
self.console = { log: __write, info: __write, warn: __write, error: __write, debug: __write, trace: __write };
const __finish = (value) => {
  __flush();
  let json;
  try { json = value === undefined ? "null" : JSON.stringify(value); } catch (error) { json = JSON.stringify(String(value)); }
  __post({ kind: "result", json: json === undefined ? "null" : json });
};
const __fail = (error) => {
  __flush();
  __post({ kind: "error", message: error instanceof Error ? String(error.message) : String(error), stack: error instanceof Error && typeof error.stack === "string" ? error.stack : undefined });
};
__post({ kind: "hello" });
const input = ${JSON.stringify(input)};
`;
}

/**
 * The forms the code is tried in, in order, until one parses: the whole code as one expression, the code with
 * its last line returned, the code as a function body. Each form means the same as the code; only the first two
 * give the value of an expression that the code does not `return`.
 */
export function workerSources(code: string, input: JsonValue): string[] {
  const start = prelude(input);
  const run = (body: string) => `${start}(async () => {\n${body}\n})().then(__finish, __fail);\n`;
  const lines = code.replace(/\s+$/, '').split('\n');
  const last = lines.at(-1) ?? '';
  const forms = [run(`return (\n${code.replace(/;\s*$/, '')}\n);`)];
  if (lines.length > 1 && /\S/.test(last) && !/^\s*[}\])]/.test(last))
    forms.push(run(`${lines.slice(0, -1).join('\n')}\nreturn (\n${last.replace(/;\s*$/, '')}\n);`));
  forms.push(run(code));
  return forms;
}
