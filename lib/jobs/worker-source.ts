import type { JsonValue } from '../protocol/json-value';
import { COMPLETION_VARIABLE, scriptBody } from './script-body';

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
let ${COMPLETION_VARIABLE};
`;
}

export type WorkerSource = { ok: true; source: string } | { ok: false; error: string };

/** The worker's whole source: the prelude, then the code as an async function body whose value is the result. */
export function workerSource(code: string, input: JsonValue): WorkerSource {
  const body = scriptBody(code);
  if (!body.ok) return body;
  return { ok: true, source: `${prelude(input)}(async () => {\n${body.body}\n})().then(__finish, __fail);\n` };
}
