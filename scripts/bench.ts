/**
 * `npm run bench`: runs each browser benchmark in Debian Chromium and prints its figures.
 * Benchmarks are programs, not tests: compare the ratios printed side by side in one run.
 */
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';

const root = resolve(import.meta.dirname, '..');
const benches = [{ name: 'event-log rebuild', entry: 'tests/bench/event-log-bench.ts' }];

async function bundle(entry: string): Promise<string> {
  const result = await build({ entryPoints: [resolve(root, entry)], bundle: true, write: false, format: 'esm', platform: 'browser', target: 'chrome120', alias: { '@': root } });
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
    response.end('<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bench.js"></script>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  const profile = mkdtempSync(join(tmpdir(), 'splitbrain-bench-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    userDataDir: profile,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const line = new Promise<string>((done) => page.on('console', (message) => message.text().startsWith('BENCH') && done(message.text())));
    await page.goto(`http://127.0.0.1:${port}/`);
    return await Promise.race([line, new Promise<string>((_, fail) => setTimeout(() => fail(new Error('benchmark timed out')), 300_000))]);
  } finally {
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

for (const bench of benches) {
  const output = await runInChromium(await bundle(bench.entry));
  console.log(output.replace(/^BENCH /, ''));
}
