import type { JsonValue } from '../protocol/json-value';
import { JOB_LIMITS } from './job-limits';
import { BLOCKED_IMPORT, COMPLETION_VARIABLE, scriptBody } from './script-body';

/**
 * The worker's prelude: console writes become `output` messages, the code's value becomes `result` (as JSON), a
 * throw or rejection becomes `error`. The code is inlined, not evaluated: the sandbox's CSP allows no eval, and a
 * worker made from a blob is all it needs.
 *
 * Every message but the first goes over a port the first one hands the frame: a terminated worker's messages
 * still queued on its own channel are dropped, those posted to a port are still delivered. The code runs once the
 * frame has answered over that port: Firefox connects a port whose other end was sent away only when the worker's
 * event loop turns, so what a script in a tight loop posted before the answer never left it. Output leaves the
 * worker inside the console call, never on a timer: a script in a tight loop never lets a timer run, and what a
 * worker still holds when it is terminated (Stop, the time limit) is gone. Every call posts at
 * once up to a budget of posts per window; past it (a flood the frame could not keep up with, its queue would grow
 * without bound) a call posts what has gathered once the last post is a few milliseconds old or 16 KiB have
 * gathered, and a script that yields has the rest posted by a timer. Only a flood's last few milliseconds can be
 * lost to a terminate.
 */
/**
 * What a job's worker loses before its code runs. Chromium exempts the extension's own scheme from every CSP and
 * lets a sandboxed extension page load the extension's files, so in a job a fetch, an XHR or a nested worker
 * of `chrome-extension://<id>/…` succeeded; `import()` is rewritten away (lib/jobs/script-body.ts), and the CSP
 * allows no eval to build either anew. Each is removed from the global and every prototype it is inherited from.
 */
const BLOCKED_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'EventSource',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'importScripts',
  'Worker',
  'SharedWorker',
  'FontFace',
];

function prelude(input: JsonValue): string {
  const { workerPostsPerWindow, workerPostWindowMs, workerFloodPostMs, workerFloodPostChars } = JOB_LIMITS;
  return `
const __channel = new MessageChannel();
const __ready = new Promise((resolve) => { __channel.port1.onmessage = () => { __channel.port1.onmessage = null; resolve(); }; });
self.postMessage({ kind: "hello" }, [__channel.port2]);
const __post = __channel.port1.postMessage.bind(__channel.port1);
const __now = performance.now.bind(performance);
const __later = setTimeout.bind(self);
let __pending = "";
let __lastPost = -Infinity;
let __windowStart = -Infinity;
let __postsInWindow = 0;
let __flushLater = false;
const __flush = () => {
  __flushLater = false;
  if (__pending === "") return;
  __post({ kind: "output", text: __pending });
  __pending = "";
  __lastPost = __now();
};
const __format = (value) => {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack || String(value);
  try { const text = JSON.stringify(value); return text === undefined ? String(value) : text; } catch { return String(value); }
};
const __write = (...values) => {
  __pending += values.map(__format).join(" ") + "\\n";
  const now = __now();
  if (now - __windowStart >= ${workerPostWindowMs}) { __windowStart = now; __postsInWindow = 0; }
  if (__postsInWindow < ${workerPostsPerWindow} || now - __lastPost >= ${workerFloodPostMs} || __pending.length >= ${workerFloodPostChars}) {
    __postsInWindow += 1;
    __flush();
  } else if (!__flushLater) {
    __flushLater = true;
    __later(__flush, 0);
  }
};
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
const __refusal = (name) => new TypeError(name + " is not available in the job sandbox: it reaches no network and none of the extension's files.");
const ${BLOCKED_IMPORT} = () => Promise.reject(__refusal("import()"));
for (const __name of ${JSON.stringify(BLOCKED_GLOBALS)}) {
  for (let __owner = self; __owner; __owner = Object.getPrototypeOf(__owner))
    if (Object.prototype.hasOwnProperty.call(__owner, __name)) delete __owner[__name];
  const __blocked = __name === "fetch" ? () => Promise.reject(__refusal(__name)) : function () { throw __refusal(__name); };
  Object.defineProperty(self, __name, { value: __blocked, writable: false, configurable: false, enumerable: false });
}
const input = ${JSON.stringify(input)};
let ${COMPLETION_VARIABLE};
`;
}

export type WorkerSource = { ok: true; source: string } | { ok: false; error: string };

/** The worker's whole source: the prelude, then the code as an async function body whose value is the result. */
export function workerSource(code: string, input: JsonValue): WorkerSource {
  const body = scriptBody(code);
  if (!body.ok) return body;
  return {
    ok: true,
    source: `${prelude(input)}__ready.then(async () => {\n${body.body}\n}).then(__finish, __fail);\n`,
  };
}
