import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../protocol/json-value';
import { workerSource } from './worker-source';

interface WorkerMessage {
  kind: string;
  json?: string;
  text?: string;
  message?: string;
}

/** Runs the worker's source in a fresh context standing in for the worker, and collects what it posts. */
async function runInWorker(code: string, input: JsonValue = null): Promise<WorkerMessage[]> {
  const built = workerSource(code, input);
  if (!built.ok) return [{ kind: 'refused', message: built.error }];
  const messages: WorkerMessage[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  let settle = () => {};
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const context = createContext({
    postMessage: (message: WorkerMessage) => {
      messages.push(message);
      if (message.kind === 'result' || message.kind === 'error') settle();
    },
    setInterval: (run: () => void, delay: number) => {
      const timer = setInterval(run, delay);
      timers.push(timer);
      return timer;
    },
    setTimeout,
    performance,
  });
  context.self = context;
  runInContext(built.source, context);
  await settled;
  for (const timer of timers) clearInterval(timer);
  return messages;
}

async function resultOf(code: string, input: JsonValue = null): Promise<unknown> {
  const messages = await runInWorker(code, input);
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
    const messages = await runInWorker('console.log("got", input.n);\ninput.n + 1', { n: 41 });
    expect(messages.filter((message) => message.kind === 'output').map((message) => message.text)).toEqual([
      'got 41\n',
    ]);
    expect(messages.find((message) => message.kind === 'result')?.json).toBe('42');
  });

  it('refuses code that does not parse, with the position, without running any of it', async () => {
    const messages = await runInWorker('console.log("ran");\nlet = = 2');
    expect(messages).toEqual([{ kind: 'refused', message: expect.stringMatching(/^SyntaxError: .*\(2:\d+\)$/) }]);
  });

  it('turns a throw into an error', async () => {
    const messages = await runInWorker('throw new Error("no")');
    expect(messages.find((message) => message.kind === 'error')?.message).toBe('no');
  });
});
