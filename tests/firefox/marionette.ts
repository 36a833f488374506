import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** Resolves to this machine inside the test profile, so a server on 127.0.0.1 can pose as a remote endpoint. */
export const REMOTE_TEST_HOST = 'models.splitbrain.test';
export const OTHER_REMOTE_TEST_HOST = 'other.splitbrain.test';

/** Marionette answers `[1, id, error, result]`; it greets with an object first. */
const replySchema = z.tuple([
  z.literal(1),
  z.number(),
  z.object({ error: z.string(), message: z.string() }).nullable(),
  z.unknown(),
]);

/**
 * A minimal client of Firefox's Marionette protocol (length-prefixed JSON over TCP). Unlike WebDriver BiDi,
 * Marionette can install a temporary add-on and reach moz-extension:// pages from the chrome context.
 */
export class Marionette {
  private buffer = Buffer.alloc(0);
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
  }

  private drain(): void {
    for (;;) {
      const colon = this.buffer.indexOf(':');
      if (colon < 0) return;
      const length = Number(this.buffer.subarray(0, colon).toString());
      if (this.buffer.length < colon + 1 + length) return;
      const body = this.buffer.subarray(colon + 1, colon + 1 + length).toString('utf8');
      this.buffer = this.buffer.subarray(colon + 1 + length);
      const parsed = replySchema.safeParse(JSON.parse(body));
      if (!parsed.success) continue;
      const [, id, error, result] = parsed.data;
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error) waiter?.reject(new Error(`${error.error}: ${error.message}`));
      else waiter?.resolve(result);
    }
  }

  send<T = unknown>(command: string, parameters: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.nextId;
    const body = Buffer.from(JSON.stringify([0, id, command, parameters]), 'utf8');
    this.socket.write(`${body.length}:`);
    this.socket.write(body);
    return new Promise<T>((resolve, reject) =>
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject }),
    );
  }

  /** Runs `script` (an async function body; `arguments` are `args`) in the current context and returns its value. */
  async execute<T>(script: string, args: unknown[] = []): Promise<T> {
    const wrapped = `return (async function () { ${script} }).apply(this, arguments);`;
    return (await this.send<{ value: T }>('WebDriver:ExecuteScript', { script: wrapped, args })).value;
  }

  /** The first element matching a CSS selector (or an XPath when `using` says so), as a WebDriver element reference. */
  async find(selector: string, using: 'css selector' | 'xpath' = 'css selector'): Promise<Record<string, string>> {
    return (await this.send<{ value: Record<string, string> }>('WebDriver:FindElement', { using, value: selector }))
      .value;
  }

  /** A trusted click, as a user's: it counts as the gesture an extension needs to ask for a permission. */
  async click(selector: string, using: 'css selector' | 'xpath' = 'css selector'): Promise<void> {
    const element = await this.find(selector, using);
    await this.send('WebDriver:ElementClick', { id: Object.values(element)[0] });
  }

  /** Replaces a field's value by typing over it, as a user would (WebDriver's clear is not a user's edit). */
  async type(selector: string, text: string): Promise<void> {
    const id = Object.values(await this.find(selector))[0];
    await this.execute(
      'const field = document.querySelector(arguments[0]); field.focus(); field.select(); return true;',
      [selector],
    );
    await this.send('WebDriver:ElementSendKeys', { id, text });
  }

  close(): void {
    this.socket.destroy();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise((done) => server.close(done));
  return port;
}

export interface FirefoxSession {
  marionette: Marionette;
  close(): Promise<void>;
}

/** Headless Firefox ESR with a fresh profile and Marionette on a free port. */
export async function launchFirefox(): Promise<FirefoxSession> {
  if (!existsSync(FIREFOX))
    throw new Error(`Firefox ESR is not at ${FIREFOX}: install it (apt-get install firefox-esr) or set FIREFOX_PATH.`);
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'splitbrain-firefox-'));
  writeFileSync(
    join(profile, 'user.js'),
    [
      `user_pref("marionette.port", ${port});`,
      'user_pref("browser.shell.checkDefaultBrowser", false);',
      'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
      'user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);',
      'user_pref("browser.startup.homepage_override.mstone", "ignore");',
      'user_pref("app.update.disabledForTesting", true);',
      'user_pref("browser.aboutwelcome.enabled", false);',
      // A name that is not loopback to the extension but reaches the test server: for host-permission prompts.
      `user_pref("network.dns.localDomains", "${REMOTE_TEST_HOST},${OTHER_REMOTE_TEST_HOST}");`,
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    FIREFOX,
    ['--headless', '--marionette', '-remote-allow-system-access', '--no-remote', '--profile', profile],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const socket = await new Promise<Socket | undefined>((resolve) => {
      const candidate = connect(port, '127.0.0.1', () => resolve(candidate));
      candidate.on('error', () => resolve(undefined));
    });
    if (socket) {
      const marionette = new Marionette(socket);
      await marionette.send('WebDriver:NewSession', { capabilities: {} });
      return {
        marionette,
        close: async () => {
          marionette.close();
          child.kill();
          await new Promise((done) => child.once('exit', done));
          rmSync(profile, { recursive: true, force: true });
        },
      };
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`Firefox did not open Marionette on port ${port} within 60 s.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
