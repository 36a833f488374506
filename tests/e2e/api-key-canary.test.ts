import { randomBytes } from 'node:crypto';
import type { CDPSession, ConsoleMessage, Page, Target } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureProfile,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';
import { captureExport, exportedArchive } from './conversation-export';

/** A key nobody else could have: any place it shows up, it came from the profile. */
const CANARY = `sk-canary-${randomBytes(16).toString('hex')}`;

interface SeenRequest {
  url: string;
  text: string;
}

/** Records the console and the requests of every page (with its frames, targets included) and every service worker. */
class Observer {
  readonly console: string[] = [];
  readonly requests: SeenRequest[] = [];
  private readonly workerSessions: CDPSession[] = [];

  async observe(target: Target): Promise<void> {
    if (target.type() === 'page') {
      const page = await target.page();
      if (page) this.observePage(page);
    } else if (target.type() === 'service_worker') {
      await this.observeWorker(target);
    }
  }

  private observePage(page: Page): void {
    page.on('console', (message: ConsoleMessage) =>
      this.console.push(
        `${message.text()} ${JSON.stringify(message.args().map((argument) => argument.remoteObject()))}`,
      ),
    );
    page.on('pageerror', (error) => this.console.push(String(error)));
    page.on('request', (request) =>
      this.requests.push({
        url: request.url(),
        text: `${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`,
      }),
    );
  }

  private async observeWorker(target: Target): Promise<void> {
    const session = await target.createCDPSession();
    this.workerSessions.push(session);
    session.on('Runtime.consoleAPICalled', (event) => this.console.push(JSON.stringify(event.args)));
    session.on('Runtime.exceptionThrown', (event) => this.console.push(JSON.stringify(event.exceptionDetails)));
    session.on('Log.entryAdded', (event) => this.console.push(JSON.stringify(event.entry)));
    session.on('Network.requestWillBeSent', (event) =>
      this.requests.push({
        url: event.request.url,
        text: `${event.request.url} ${JSON.stringify(event.request.headers)} ${event.request.postData ?? ''}`,
      }),
    );
    await Promise.all([session.send('Runtime.enable'), session.send('Log.enable'), session.send('Network.enable')]);
  }
}

function hits(text: string): number {
  return text.split(CANARY).length - 1;
}

/** Every row of every object store of every IndexedDB database of the extension's origin. */
async function everyIndexedDbRow(
  page: Page,
): Promise<{ databases: number; stores: number; rows: number; text: string }> {
  return page.evaluate(async () => {
    const request = <T>(operation: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        operation.onsuccess = () => resolve(operation.result);
        operation.onerror = () => reject(new Error(String(operation.error)));
      });
    const summary = { databases: 0, stores: 0, rows: 0, text: '' };
    for (const info of await indexedDB.databases()) {
      const database = await request(indexedDB.open(info.name!));
      summary.databases += 1;
      for (const storeName of database.objectStoreNames) {
        summary.stores += 1;
        const rows = await request(database.transaction(storeName).objectStore(storeName).getAll());
        summary.rows += rows.length;
        summary.text += JSON.stringify(rows);
      }
      database.close();
    }
    return summary;
  });
}

async function exportCurrentSession(panel: Page): Promise<string> {
  // The stage tab opened in front of the panel; a background tab runs no animation frames for the waits below.
  await panel.bringToFront();
  await panel.click('button[aria-label="Sessions"]');
  return exportedArchive(await captureExport(panel)).conversation;
}

/** The DOM and reported state of every frame in the stage tab (each target's frame), and the stage page itself. */
async function stageFramesText(session: ExtensionSession): Promise<{ frames: number; text: string }> {
  const stage = await session.stagePage();
  let text = '';
  let frames = 0;
  for (const frame of stage.frames()) {
    frames += 1;
    text += await frame.evaluate(() => {
      const bridge = (window as unknown as { SplitbrainBridge?: { currentState(): unknown } }).SplitbrainBridge;
      return `${window.location.href} ${document.documentElement.outerHTML} ${JSON.stringify(bridge ? bridge.currentState() : null)} ${window.name}`;
    });
  }
  return { frames, text };
}

describe('a canary API key goes to its endpoint and nowhere else', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  const observer = new Observer();

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension(process.env.SPLITBRAIN_TEST_BUILD);
    session.browser.on('targetcreated', (target: Target) => void observer.observe(target));
    for (const target of session.browser.targets()) await observer.observe(target);
    await configureProfile(session, {
      kind: 'openai-compatible',
      label: 'Canary endpoint',
      baseUrl: server.url,
      model: 'scripted-model',
      apiKey: CANARY,
      scripted: false,
    });
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('is found in the endpoint requests and in no row, console line, export, target frame or other request', async () => {
    server.setScript({
      turns: [
        {
          steps: [
            { toolCalls: [{ name: 'getParameters', arguments: {} }] },
            {
              toolCalls: [
                {
                  name: 'setParameters',
                  arguments: {
                    changes: [
                      { param: 'speed', value: 21 },
                      { param: 'show_vectors', value: true },
                    ],
                  },
                },
              ],
            },
            { toolCalls: [{ name: 'setParameter', arguments: { param: 'spd', value: 3 } }] },
            { text: 'Speed is 21 m/s and the vectors are on.' },
          ],
        },
      ],
    });
    const panel = await session.openPanel();
    await sendMessage(panel, 'Make the particles faster and show their vectors.');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => item.getAttribute('data-status')),
    );
    expect(cards).toEqual(['done', 'done', 'failed']);

    const exported = await exportCurrentSession(panel);
    const storage = await everyIndexedDbRow(panel);
    const stage = await stageFramesText(session);
    const extensionStorage = await panel.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }),
    );
    // Positive controls: a line logged in each kind of context must reach the observer, or its search proves nothing.
    await panel.evaluate(() => console.log('console-probe-panel', { nested: 'console-probe-object' }));
    await (await session.worker()).evaluate(() => console.log('console-probe-worker'));
    await (await session.targetFrame('particles')).evaluate(() => console.log('console-probe-target'));
    await panel.close();
    await new Promise((resolve) => setTimeout(resolve, 300));

    const endpointOrigin = new URL(server.url).origin;
    const toEndpoint = observer.requests.filter((request) => new URL(request.url).origin === endpointOrigin);
    const elsewhere = observer.requests.filter((request) => new URL(request.url).origin !== endpointOrigin);
    const figures = {
      'endpoint requests seen by the browser': toEndpoint.length,
      'hits in endpoint requests (must be > 0)': toEndpoint.reduce((sum, request) => sum + hits(request.text), 0),
      'hits in Authorization headers received by the endpoint': server.requests.filter((request) =>
        JSON.stringify(request.headers).includes(CANARY),
      ).length,
      'IndexedDB databases/stores/rows searched': `${storage.databases}/${storage.stores}/${storage.rows}`,
      'hits in IndexedDB': hits(storage.text),
      'console lines searched': observer.console.length,
      'hits in console output': hits(observer.console.join('\n')),
      'export bytes searched': exported.length,
      'hits in the export': hits(exported),
      'redactions in the export': exported.split('[redacted]').length - 1,
      'stage frames searched': stage.frames,
      'hits in stage and target frames': hits(stage.text),
      'hits in extension localStorage/sessionStorage': hits(extensionStorage),
      'other requests searched': elsewhere.length,
      'hits in requests to any other host': elsewhere.reduce((sum, request) => sum + hits(request.text), 0),
    };
    console.log(
      `[api key canary] ${Object.entries(figures)
        .map(([place, count]) => `${place}: ${count}`)
        .join('; ')}`,
    );

    expect(figures['endpoint requests seen by the browser']).toBeGreaterThanOrEqual(4);
    expect(figures['hits in endpoint requests (must be > 0)']).toBeGreaterThanOrEqual(4);
    expect(figures['hits in Authorization headers received by the endpoint']).toBe(server.requests.length);
    expect(server.requests.length).toBe(4);
    expect(storage.rows).toBeGreaterThan(10);
    expect(figures['hits in IndexedDB']).toBe(0);
    const consoleText = observer.console.join('\n');
    for (const probe of ['console-probe-panel', 'console-probe-object', 'console-probe-worker', 'console-probe-target'])
      expect(consoleText, probe).toContain(probe);
    expect(figures['hits in console output']).toBe(0);
    expect(JSON.parse(exported)).toMatchObject({ format: 'splitbrain-session' });
    expect(figures['hits in the export']).toBe(0);
    expect(figures['redactions in the export']).toBe(0);
    expect(stage.frames).toBeGreaterThanOrEqual(2);
    expect(stage.text).toContain('"speed":21');
    expect(figures['hits in stage and target frames']).toBe(0);
    expect(figures['hits in extension localStorage/sessionStorage']).toBe(0);
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(figures['hits in requests to any other host']).toBe(0);
  });
});
