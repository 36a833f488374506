import { createContext, runInContext } from 'node:vm';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../protocol/json-value';
import { JOB_LIMITS } from './job-limits';
import { workerSource } from './worker-source';

interface WorkerMessage {
  kind: string;
  json?: string;
  text?: string;
  message?: string;
}

interface WorkerRun {
  messages: WorkerMessage[];
  /** The output as the frame got it. */
  output(): string;
  /** Posts over the worker's port. */
  posts(): number;
}

/**
 * Runs the worker's source in a fresh context standing in for the worker, and collects what it posts: the first
 * message on its own channel, every later one over the port that message hands over. `until` says when the run
 * has posted all it will; a script that never yields is cut off after `cutOffMs`, as a terminate would.
 */
async function runInWorker(
  code: string,
  input: JsonValue = null,
  options: {
    cutOffMs?: number;
    until?: (messages: WorkerMessage[]) => boolean;
    globals?: Record<string, unknown>;
  } = {},
): Promise<WorkerRun> {
  const built = workerSource(code, input);
  const messages: WorkerMessage[] = [];
  const run: WorkerRun = {
    messages,
    output: () => messages.flatMap((message) => (message.kind === 'output' ? [message.text ?? ''] : [])).join(''),
    posts: () => messages.filter((message) => message.kind !== 'hello').length,
  };
  if (!built.ok) {
    messages.push({ kind: 'refused', message: built.error });
    return run;
  }
  const until = options.until ?? ((seen) => seen.some((message) => ['result', 'error'].includes(message.kind)));
  const ports: MessagePort[] = [];
  let alive = true;
  let settle = () => {};
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const receive = (message: WorkerMessage) => {
    messages.push(message);
    if (until(messages)) settle();
  };
  const context = createContext(
    {
      postMessage: (message: WorkerMessage, transfer: MessagePort[] = []) => {
        for (const port of transfer) {
          ports.push(port);
          port.on('message', receive);
          // A script cut off in a tight loop must be answered inside the cut-off; see below.
          if (!options.cutOffMs) port.postMessage({ kind: 'ready' });
        }
        receive(message);
      },
      MessageChannel,
      setTimeout: (run: () => void, delay: number) => setTimeout(() => alive && run(), delay),
      setInterval: (run: () => void, delay: number) => {
        const timer = setInterval(() => (alive ? run() : clearInterval(timer)), delay);
        return timer;
      },
      performance,
      ...options.globals,
    },
    options.cutOffMs ? { microtaskMode: 'afterEvaluate' } : {},
  );
  context.self = context;
  try {
    runInContext(built.source, context);
    // The frame's answer runs the code; with the context's own microtasks run inside the evaluation, a code that
    // never yields is cut off there, as a terminate would.
    if (options.cutOffMs)
      runInContext('__channel.port1.onmessage({ data: { kind: "ready" } })', context, { timeout: options.cutOffMs });
  } catch (error) {
    if (!options.cutOffMs) throw error;
    // Cut off as a terminate cuts a worker off: its timers never run; what it posted to its port still arrives.
    alive = false;
  }
  await settled;
  for (const port of ports) port.close();
  return run;
}

async function resultOf(code: string, input: JsonValue = null): Promise<unknown> {
  const { messages } = await runInWorker(code, input);
  const result = messages.find((message) => message.kind === 'result');
  if (!result) throw new Error(`No result: ${JSON.stringify(messages)}`);
  return JSON.parse(result.json ?? 'null');
}

describe('the value of a script, as a console gives it', () => {
  it('is the value of its last expression statement, on one line with statements before it', async () => {
    expect(await resultOf('let p = 1; for (let i = 1; i <= 10; i++) p *= i; p')).toBe(3628800);
  });

  it('is the value of the last expression statement when declarations follow it', async () => {
    expect(await resultOf('const a = 2;\na * 21;\nfunction unused() {}\nlet after = 1;;')).toBe(42);
  });

  it('keeps what a `return` gives, at the top level or from a nested block', async () => {
    expect(await resultOf('const x = 5;\nreturn x * 2;')).toBe(10);
    expect(await resultOf('if (input.early) { return "early"; }\n"late"', { early: true })).toBe('early');
    expect(await resultOf('if (input.early) { return "early"; }\n"late"', { early: false })).toBe('late');
  });

  it('keeps top-level await', async () => {
    expect(await resultOf('const value = await Promise.resolve(6);\nvalue * 7')).toBe(42);
    expect(await resultOf('await new Promise((resolve) => setTimeout(() => resolve("waited"), 1))')).toBe('waited');
  });

  it('reads code that starts with `{` as an object first, and a parenthesised one as one too', async () => {
    expect(await resultOf('{ a: 1, b: [2] }')).toEqual({ a: 1, b: [2] });
    expect(await resultOf('{ a: 1 } // the object')).toEqual({ a: 1 });
    expect(await resultOf('({ a: 1 });')).toEqual({ a: 1 });
    expect(await resultOf('{ const inner = 3; }\n"after the block"')).toBe('after the block');
  });

  it('is null when the last statement is not an expression (a loop) and nothing is returned', async () => {
    expect(await resultOf('let sum = 0;\nfor (let i = 0; i < 3; i++) sum += i;')).toBeNull();
  });

  it('is unchanged by a `return` word in a string, a comment or a nested function', async () => {
    expect(await resultOf('// return 1\nconst f = () => { return 1; };\nf() + " return"')).toBe('1 return');
  });

  it('sees `input` and prints with console.log', async () => {
    const { messages } = await runInWorker('console.log("got", input.n);\ninput.n + 1', { n: 41 });
    expect(messages.filter((message) => message.kind === 'output').map((message) => message.text)).toEqual([
      'got 41\n',
    ]);
    expect(messages.find((message) => message.kind === 'result')?.json).toBe('42');
  });

  it('refuses code that does not parse, with the position, without running any of it', async () => {
    const { messages } = await runInWorker('console.log("ran");\nlet = = 2');
    expect(messages).toEqual([{ kind: 'refused', message: expect.stringMatching(/^SyntaxError: .*\(2:\d+\)$/) }]);
  });

  it('turns a throw into an error', async () => {
    const { messages } = await runInWorker('throw new Error("no")');
    expect(messages.find((message) => message.kind === 'error')?.message).toBe('no');
  });
});

describe('output leaves the worker inside the console call', () => {
  const outputOf = (seen: WorkerMessage[]) =>
    seen
      .filter((message) => message.kind === 'output')
      .map((message) => message.text)
      .join('');

  it('what a script printed just before a tight loop has been posted when the loop is cut off', async () => {
    const code = 'console.log("spinning");\nfor (let i = 0; i < 3; i++) console.log("line", i);\nwhile (true) {}';
    const expected = 'spinning\nline 0\nline 1\nline 2\n';
    const run = await runInWorker(code, null, { cutOffMs: 200, until: (seen) => outputOf(seen) === expected });
    expect(run.output()).toBe(expected);
    expect(run.messages[0]).toEqual({ kind: 'hello' });
  });

  it('a flood is posted in batches, bounded, and all but its last batch has left before the loop is cut off', async () => {
    const lines = 50_000;
    const code = `for (let i = 0; i < ${lines}; i++) console.log(i);\nwhile (true) {}`;
    const all = Array.from({ length: lines }, (_, index) => `${index}\n`).join('');
    const run = await runInWorker(code, null, {
      cutOffMs: 500,
      until: (seen) => all.length - outputOf(seen).length < JOB_LIMITS.workerFloodPostChars,
    });
    expect(all.startsWith(run.output())).toBe(true);
    expect(all.length - run.output().length).toBeLessThan(JOB_LIMITS.workerFloodPostChars);
    expect(run.posts()).toBeLessThan(lines / 10);
  });
});

describe('a job reaches nothing outside its worker', () => {
  it('fetch, XHR, importScripts, nested workers and the rest are gone, however they are looked up', async () => {
    const reached: string[] = [];
    const reach = (name: string) =>
      function () {
        reached.push(name);
        return Promise.resolve('reached');
      };
    const globals = Object.fromEntries(
      ['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket', 'importScripts', 'Worker', 'FontFace'].map((name) => [
        name,
        reach(name),
      ]),
    );
    const code = `
const url = 'chrome-extension://extension/manifest.json';
const attempts = {
  fetch: () => fetch(url),
  fetchOfSelf: () => self.fetch(url),
  xhr: () => new XMLHttpRequest(),
  eventSource: () => new EventSource(url),
  webSocket: () => new WebSocket(url),
  importScripts: () => importScripts(url),
  worker: () => new Worker(url),
  fontFace: () => new FontFace('probe', 'url(' + url + ')'),
  dynamicImport: () => import(url),
  spacedImport: () => import /* comment */ (url),
};
const refused = {};
for (const [name, attempt] of Object.entries(attempts)) {
  refused[name] = await Promise.resolve().then(attempt).then(() => 'reached', (error) => String(error.message));
}
refused`;
    const { messages } = await runInWorker(code, null, { globals });
    const result = JSON.parse(messages.find((message) => message.kind === 'result')?.json ?? '{}') as Record<
      string,
      string
    >;
    expect(Object.keys(result)).toHaveLength(10);
    for (const [name, outcome] of Object.entries(result))
      expect({ name, outcome }).toEqual({ name, outcome: expect.stringContaining('not available in the job sandbox') });
    expect(reached).toEqual([]);
  });
});
