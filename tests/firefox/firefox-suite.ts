import { afterAll, beforeAll } from 'vitest';
import { launchFirefox, type FirefoxSession, type Marionette } from './marionette';
import { installBuild } from './sidebar-page';

type Starters = Record<string, () => Promise<{ close(): Promise<unknown> | unknown }>>;

/** What a file's tests use once `beforeAll` ran: its servers by name, Firefox's Marionette, the build's origin. */
export type FirefoxSuite<Servers extends Starters> = { [Name in keyof Servers]: Awaited<ReturnType<Servers[Name]>> } & {
  marionette: Marionette;
  /** The installed build's `moz-extension://` origin. */
  base: string;
};

/**
 * Before the describe's tests: its servers started in order, Firefox launched and the build installed; after them,
 * Firefox closed and then every server that started.
 */
export function firefoxSuite<Servers extends Starters>(starters: Servers): FirefoxSuite<Servers> {
  const suite = {} as FirefoxSuite<Servers>;
  const started: { close(): Promise<unknown> | unknown }[] = [];
  let firefox: FirefoxSession | undefined;

  beforeAll(async () => {
    for (const [name, start] of Object.entries(starters)) {
      const server = await start();
      started.push(server);
      Object.assign(suite, { [name]: server });
    }
    firefox = await launchFirefox();
    Object.assign(suite, { marionette: firefox.marionette, base: await installBuild(firefox.marionette) });
  }, 120_000);

  afterAll(async () => {
    await firefox?.close();
    for (const server of started) await server.close();
  });

  return suite;
}
