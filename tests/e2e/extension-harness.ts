import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Frame, type Page, type WebWorker } from 'puppeteer-core';

export const TEST_BUILD = resolve(import.meta.dirname, '../../.output/test/chrome-mv3');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ExtensionSession {
  browser: Browser;
  extensionId: string;
  worker(): Promise<WebWorker>;
  openPanel(): Promise<Page>;
  stagePage(): Promise<Page>;
  targetFrame(targetId: string): Promise<Frame>;
  stopServiceWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /**
   * The folder Chromium saves downloads in, without asking, set in the profile before launch. DevTools'
   * `Browser.setDownloadBehavior` would name every file after its URL, not as `downloads.download` asks.
   */
  downloadsFolder?: string;
}

export async function launchExtension(
  extensionPath = TEST_BUILD,
  options: LaunchOptions = {},
): Promise<ExtensionSession> {
  const profile = mkdtempSync(join(tmpdir(), 'splitbrain-profile-'));
  if (options.downloadsFolder) {
    mkdirSync(join(profile, 'Default'));
    writeFileSync(
      join(profile, 'Default', 'Preferences'),
      JSON.stringify({ download: { default_directory: options.downloadsFolder, prompt_for_download: false } }),
    );
  }
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    enableExtensions: [extensionPath],
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-features=Translate',
    ],
  });
  const workerTarget = await browser.waitForTarget(
    (target) => target.type() === 'service_worker' && target.url().endsWith('/background.js'),
    { timeout: 30_000 },
  );
  const extensionId = new URL(workerTarget.url()).host;
  const base = `chrome-extension://${extensionId}`;

  const worker = async () => {
    const target = await browser.waitForTarget(
      (candidate) => candidate.type() === 'service_worker' && candidate.url().startsWith(base),
      { timeout: 30_000 },
    );
    return (await target.worker())!;
  };

  return {
    browser,
    extensionId,
    worker,
    openPanel: async () => {
      const page = await browser.newPage();
      await page.goto(`${base}/sidepanel.html`);
      await page.waitForSelector('textarea[aria-label="Message"]');
      return page;
    },
    stagePage: async () => {
      const target = await browser.waitForTarget(
        (candidate) => candidate.type() === 'page' && candidate.url().startsWith(`${base}/stage.html`),
        { timeout: 30_000 },
      );
      return (await target.page())!;
    },
    targetFrame: async (targetId: string) => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        for (const page of await browser.pages()) {
          const frame = page.frames().find((candidate) => candidate.url().includes(`/targets/${targetId}/`));
          const bridgeLoaded = frame && (await frame.evaluate(() => 'SplitbrainBridge' in window).catch(() => false));
          if (frame && bridgeLoaded) return frame;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`No frame of target ${targetId} appeared.`);
    },
    stopServiceWorker: async () => {
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      const session = await page.createCDPSession();
      await session.send('ServiceWorker.enable');
      await session.send('ServiceWorker.stopAllWorkers');
      await session.detach();
    },
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Writes the single-endpoint key of earlier versions, as `npm start` once did: the extension folds it into an active profile. */
export async function configureEndpoint(
  session: ExtensionSession,
  baseUrl: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const page = await session.browser.newPage();
  await page.goto(`chrome-extension://${session.extensionId}/options.html`);
  await page.evaluate(
    (settings) =>
      (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local.set({ endpoint: settings }),
    {
      kind: 'openai-compatible',
      label: 'Scripted test model',
      baseUrl,
      model: 'scripted-model',
      apiKey: '',
      scripted: true,
      ...extra,
    },
  );
  await page.close();
}

/** Saves one endpoint profile (the settings of any kind) and makes it the active one, replacing any others. */
export async function configureProfile(session: ExtensionSession, settings: Record<string, unknown>): Promise<void> {
  const page = await session.browser.newPage();
  await page.goto(`chrome-extension://${session.extensionId}/options.html`);
  await page.evaluate(
    async (profile) => {
      const storage = (
        globalThis as unknown as {
          chrome: { storage: { local: { set(value: unknown): Promise<void>; remove(key: string): Promise<void> } } };
        }
      ).chrome.storage.local;
      await storage.remove('endpoint');
      await storage.set({ endpointProfiles: { activeId: profile.id, profiles: [profile] } });
    },
    { id: `profile-${String(settings.kind)}`, ...settings },
  );
  await page.close();
}

export async function sendMessage(panel: Page, text: string): Promise<void> {
  await panel.waitForSelector('textarea[aria-label="Message"]');
  await panel.type('textarea[aria-label="Message"]', text);
  await panel.click('button[type="submit"]');
}

/** Waits until the last turn in the panel has reached a final state, and returns it. */
export async function waitForTurnEnd(panel: Page, turnIndex: number, timeoutMs = 30_000): Promise<string> {
  try {
    await panel.waitForFunction(
      (index) => {
        const turn = document.querySelectorAll('article.turn')[index];
        return turn && turn.getAttribute('data-status') !== 'running';
      },
      { timeout: timeoutMs, polling: 100 },
      turnIndex,
    );
  } catch (error) {
    const shown = await panel.$eval('body', (body) => body.innerText).catch(() => '(unreadable)');
    throw new Error(`Turn ${turnIndex} did not end: ${String(error)}\nThe panel shows:\n${shown}`);
  }
  return panel.$$eval('article.turn', (turns, index) => turns[index].getAttribute('data-status') ?? '', turnIndex);
}

export interface StoredRow {
  seq: number;
  type: string;
  toolCallId?: string;
  commandId?: string;
  /** A retry's new attempt (`tool/retried`). */
  attemptId?: string;
}

/** Reads one session's log straight from IndexedDB, from an extension page (same origin as the runtime). */
export async function readStoredLog(page: Page, sessionId: string): Promise<StoredRow[]> {
  return page.evaluate(
    (id) =>
      new Promise<StoredRow[]>((resolve, reject) => {
        const request = indexedDB.open('splitbrain');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const database = request.result;
          if (!database.objectStoreNames.contains('events')) {
            database.close();
            resolve([]);
            return;
          }
          const rows = database
            .transaction('events')
            .objectStore('events')
            .getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
          rows.onsuccess = () => {
            database.close();
            resolve(
              (
                rows.result as {
                  seq: number;
                  event: { type: string; toolCallId?: string; commandId?: string; attemptId?: string };
                }[]
              ).map((row) => ({
                seq: row.seq,
                type: row.event.type,
                toolCallId: row.event.toolCallId,
                ...(row.event.commandId ? { commandId: row.event.commandId } : {}),
                ...(row.event.attemptId ? { attemptId: row.event.attemptId } : {}),
              })),
            );
          };
          rows.onerror = () => reject(new Error(String(rows.error)));
        };
      }),
    sessionId,
  );
}

/** Every stored row of a session, whole, as the runtime wrote it. */
export async function storedRowsText(page: Page, sessionId: string): Promise<string> {
  return page.evaluate(
    (id) =>
      new Promise<string>((resolve, reject) => {
        const request = indexedDB.open('splitbrain');
        request.onerror = () => reject(new Error(String(request.error)));
        request.onsuccess = () => {
          const rows = request.result
            .transaction('events')
            .objectStore('events')
            .getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
          rows.onsuccess = () => resolve(JSON.stringify(rows.result));
          rows.onerror = () => reject(new Error(String(rows.error)));
        };
      }),
    sessionId,
  );
}

/** Polls the stored log (every 5 ms, to catch short windows) until it holds `count` rows of `type`; returns how many it holds. */
export async function waitForStoredRows(
  page: Page,
  sessionId: string,
  type: string,
  count: number,
  timeoutMs = 20_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readStoredLog(page, sessionId)).filter((row) => row.type === type).length;
    if (found >= count || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What the extension's local storage holds under `key`, read from an extension page. */
export async function storedSetting(page: Page, key: string): Promise<unknown> {
  return page.evaluate(async (name) => {
    const local = (
      globalThis as unknown as {
        chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
      }
    ).chrome.storage.local;
    return (await local.get(name))[name];
  }, key);
}

export async function currentSessionId(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const stored = await (
      globalThis as unknown as {
        chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
      }
    ).chrome.storage.local.get('lastSessionId');
    return String(stored.lastSessionId);
  });
}

/** The request id of the approval card waiting in the panel, once there is one. */
export async function pendingApproval(panel: Page): Promise<string> {
  const handle = await panel.waitForFunction(
    () =>
      document.querySelector('section.approval-card[data-status="pending"]')?.getAttribute('data-request-id') ?? false,
    { polling: 100, timeout: 30_000 },
  );
  return (await handle.jsonValue()) as string;
}

/** Clicks the button with exactly this text inside one request card (a DOM click: the panel may be a background tab). */
export async function clickInCard(panel: Page, requestId: string, label: string): Promise<void> {
  await panel.waitForFunction(
    (id, text) => {
      const button = [...document.querySelectorAll<HTMLButtonElement>(`section[data-request-id="${id}"] button`)].find(
        (candidate) => candidate.textContent?.trim() === text && !candidate.disabled,
      );
      button?.click();
      return button !== undefined;
    },
    { polling: 100, timeout: 10_000 },
    requestId,
    label,
  );
}

/** Stores MCP servers in the extension's settings (`mcpServers`), as the options page would. */
export async function storeMcpServers(session: ExtensionSession, servers: unknown[]): Promise<void> {
  const page = await session.browser.newPage();
  await page.goto(`chrome-extension://${session.extensionId}/options.html`);
  await page.evaluate(
    (value) =>
      (
        globalThis as unknown as { chrome: { storage: { local: { set(value: unknown): Promise<void> } } } }
      ).chrome.storage.local.set({ mcpServers: value }),
    servers,
  );
  await page.close();
}
