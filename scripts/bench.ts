/**
 * `npm run bench`: runs each browser benchmark in Debian Chromium and prints its figures.
 * Benchmarks are programs, not tests: compare the ratios printed side by side in one run.
 */
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = resolve(import.meta.dirname, '..');
/**
 * `page` (the default): a browser program, bundled and run in a plain page; it logs one `BENCH {json}` line.
 * `extension`: a Node module whose `run()` drives the built extension with puppeteer and returns its figures.
 */
interface Bench {
  name: string;
  entry: string;
  kind?: 'page' | 'extension';
}
const benches: Bench[] = [
  { name: 'event-log rebuild', entry: 'tests/bench/event-log-bench.ts' },
  { name: 'side panel under a fast stream', entry: 'tests/bench/panel-render-bench.ts' },
  { name: 'tool round trip', entry: 'tests/bench/tool-round-trip-bench.ts', kind: 'extension' },
  { name: 'adapter throughput', entry: 'tests/bench/adapter-throughput-bench.ts' },
  { name: 'attach files', entry: 'tests/bench/attach-files-bench.ts' },
  { name: 'cold open', entry: 'tests/bench/cold-open-bench.ts', kind: 'extension' },
  { name: 'panel weight', entry: 'tests/bench/panel-weight-bench.ts', kind: 'extension' },
  { name: 'page observe', entry: 'tests/bench/page-observe-bench.ts', kind: 'extension' },
  { name: 'page act', entry: 'tests/bench/page-act-bench.ts', kind: 'extension' },
  { name: 'context', entry: 'tests/bench/context-bench.ts' },
  { name: 'search', entry: 'tests/bench/search-bench.ts' },
];

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    alias: { '@': root },
    // React's production build, as in the extension; stylesheets arrive as text.
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'text' },
  });
  return result.outputFiles[0].text;
}

async function runInChromium(script: string): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === '/bench.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bench.js"></script>',
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  const profile = mkdtempSync(join(tmpdir(), 'splitbrain-bench-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--enable-precise-memory-info',
      '--js-flags=--expose-gc',
    ],
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const page = await browser.newPage();
    const line = new Promise<string>((done) =>
      page.on('console', (message) => message.text().startsWith('BENCH') && done(message.text())),
    );
    await page.goto(`http://127.0.0.1:${port}/`);
    return await Promise.race([
      line,
      new Promise<string>((_, fail) => (timer = setTimeout(() => fail(new Error('benchmark timed out')), 900_000))),
    ]);
  } finally {
    // A pending timer keeps Node alive: the process would idle for five minutes after printing.
    clearTimeout(timer);
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function runExtensionBench(bench: Bench): Promise<string> {
  const module = (await import(pathToFileURL(resolve(root, bench.entry)).href)) as {
    run(): Promise<Record<string, number>>;
  };
  return JSON.stringify({ name: bench.name, ...(await module.run()) });
}

// `npm run bench -- <words>` runs only the benchmarks whose name contains one of the words.
const wanted = process.argv.slice(2);
for (const bench of benches.filter(
  (candidate) => wanted.length === 0 || wanted.some((word) => candidate.name.includes(word)),
)) {
  if (bench.kind === 'extension') {
    console.log(await runExtensionBench(bench));
    continue;
  }
  const output = await runInChromium(await bundle(bench.entry));
  console.log(output.replace(/^BENCH /, ''));
}
