import { afterAll, beforeAll } from 'vitest';
import { configureEndpoint, launchExtension, type ExtensionSession, type LaunchOptions } from './extension-harness';

type Closable = { close(): Promise<unknown> | unknown };
type Starters = Record<string, () => Promise<Closable>> & { model: () => Promise<Closable & { url: string }> };

/** What a file's tests use once `beforeAll` ran: its servers by name and the extension's Chromium session. */
export type ExtensionSuite<Servers extends Starters> = {
  [Name in keyof Servers]: Awaited<ReturnType<Servers[Name]>>;
} & {
  session: ExtensionSession;
};

/**
 * Before the describe's tests: its servers started in order, Chromium launched with the test build, the extension
 * pointed at the `model` server, and then `prepare` (to store settings, say); after them, Chromium closed and then
 * every server that started. `launch` is how Chromium starts (where it saves downloads, say).
 */
export function extensionSuite<Servers extends Starters>(
  starters: Servers,
  prepare?: (suite: ExtensionSuite<Servers>) => Promise<void>,
  launch?: LaunchOptions,
): ExtensionSuite<Servers> {
  const suite = {} as ExtensionSuite<Servers>;
  const started: Closable[] = [];
  let session: ExtensionSession | undefined;

  beforeAll(async () => {
    for (const [name, start] of Object.entries(starters)) {
      const server = await start();
      started.push(server);
      Object.assign(suite, { [name]: server });
    }
    session = await launchExtension(undefined, launch);
    Object.assign(suite, { session });
    await configureEndpoint(session, suite.model.url);
    await prepare?.(suite);
  });

  afterAll(async () => {
    await session?.close();
    for (const server of started) await server.close();
  });

  return suite;
}
