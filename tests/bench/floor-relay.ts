import type { Frame, Page, WebWorker } from 'puppeteer-core';

/**
 * The floor of the tool round trip: the product's hops with bare messages and no logic.
 *
 *   blob: frame of an extension page ─runtime.sendMessage─▶ background service worker
 *     ─runtime port "bench-floor"─▶ stage page ─window.postMessage─▶ sandboxed echo frame
 *   and back the same way: frame ─postMessage─▶ stage ─port─▶ worker ─sendResponse─▶ page.
 *
 * The durable floor adds what at-most-once needs of any implementation: the same hops, with two bare IndexedDB
 * commits in the worker, one before the call goes on to the stage and one before the answer goes back, as
 * `tool/execute` commits `tool/requested` + `tool/started` and then the outcome. They write copies of the rows the
 * product wrote for a real call (`benchUseRowsOf`) into a scratch database with the product's two stores and
 * indexes, each commit adding its event rows and putting the session row, on IndexedDB itself. It runs over
 * `sendMessage` (`benchDurable` on a floor message) and over a long-lived port (`timeDurablePortFloor`), which is how
 * the product's pages call the runtime.
 *
 * Floor messages are `{benchFloor: true, source: 'splitbrain:bench', n, payload}`, a shape the product
 * neither validates nor answers. They leave from a blob: frame because the background answers every
 * message from its own pages (with an error for unknown shapes) before the relay could; a blob: document
 * of the extension has the same renderer process and messaging bindings, and the background's sender
 * check ignores it.
 */

interface BenchChrome {
  runtime: {
    sendMessage(message: unknown): Promise<unknown>;
    connect(options: { name: string }): BenchPort;
    onConnect: { addListener(listener: (port: BenchPort) => void): void };
    onMessage: {
      addListener(
        listener: (message: unknown, sender: unknown, sendResponse: (response: unknown) => void) => boolean | undefined,
      ): void;
    };
  };
}

interface BenchPort {
  name: string;
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
}

interface FloorMessage {
  benchFloor?: boolean;
  benchPing?: boolean;
  benchDurable?: boolean;
  source: string;
  n: number | string;
  payload?: unknown;
}

interface WorkerGlobal {
  chrome: BenchChrome;
  benchStageLeg?(count: number): Promise<number[]>;
  benchUseRowsOf?(sessionId: string): Promise<number>;
}

/**
 * tsx compiles these functions with esbuild's keepNames, which wraps named inner functions in a `__name(...)` helper
 * that exists only in Node; the page or worker they are evaluated in gets a stand-in that returns its argument.
 */
export async function allowNamedFunctions(context: Page | Frame | WebWorker): Promise<void> {
  await context.evaluate('globalThis.__name ??= (target) => target');
}

/** In the service worker: answers pings at once and relays floor messages to the stage's port and back. */
export async function installWorkerRelay(worker: WebWorker): Promise<void> {
  await allowNamedFunctions(worker);
  await worker.evaluate(() => {
    const scope = globalThis as unknown as WorkerGlobal;
    const pending = new Map<number | string, (message: unknown) => void>();
    let stagePort: BenchPort | undefined;
    const relay = (message: FloorMessage) =>
      new Promise<unknown>((resolve) => {
        pending.set(message.n, resolve);
        stagePort!.postMessage(message);
      });

    type Row = { sessionId: string; seq: number; toolCallId?: string; event: Record<string, unknown> };
    let templates: { started: Row[]; outcome: Row[]; session: Record<string, unknown> } | undefined;
    let scratch: IDBDatabase | undefined;
    let seq = 0;
    const request = <T>(open: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
    const commit = (rows: Row[], call: string) =>
      new Promise<void>((resolve, reject) => {
        const transaction = scratch!.transaction(['sessions', 'events'], 'readwrite');
        const events = transaction.objectStore('events');
        for (const row of rows) {
          seq += 1;
          events.add({
            ...row,
            sessionId: 'floor',
            seq,
            toolCallId: call,
            event: { ...row.event, seq, toolCallId: call },
          });
        }
        transaction.objectStore('sessions').put({ ...templates!.session, sessionId: 'floor', lastSeq: seq });
        transaction.oncomplete = () => resolve();
        transaction.onabort = () => reject(transaction.error);
        transaction.commit();
      });
    const durably = async (message: FloorMessage) => {
      const call = `floor-call-${message.n}`;
      await commit(templates!.started, call);
      const reply = await relay(message);
      await commit(templates!.outcome, call);
      return reply;
    };
    // The rows the product wrote for one real call of `sessionId`, and a scratch database shaped like its own.
    scope.benchUseRowsOf = async (sessionId) => {
      const product = await request(indexedDB.open('splitbrain'));
      const transaction = product.transaction(['sessions', 'events'], 'readonly');
      const rows = (await request(
        transaction.objectStore('events').getAll(IDBKeyRange.bound([sessionId, 0], [sessionId, Infinity])),
      )) as Row[];
      const session = (await request(transaction.objectStore('sessions').get(sessionId))) as Record<string, unknown>;
      product.close();
      const last = rows.findLast((row) => row.event.type === 'tool/completed');
      const ofCall = rows.filter((row) => row.toolCallId === last?.toolCallId);
      templates = {
        started: ofCall.filter((row) => row.event.type === 'tool/requested' || row.event.type === 'tool/started'),
        outcome: ofCall.filter((row) => row.event.type === 'tool/completed'),
        session,
      };
      if (templates.started.length !== 2 || templates.outcome.length !== 1)
        throw new Error(`No complete tool call found in ${sessionId}.`);
      indexedDB.deleteDatabase('bench-durable-floor');
      const opening = indexedDB.open('bench-durable-floor', 1);
      opening.onupgradeneeded = () => {
        opening.result.createObjectStore('sessions', { keyPath: 'sessionId' }).createIndex('updatedAt', 'updatedAt');
        opening.result
          .createObjectStore('events', { keyPath: ['sessionId', 'seq'] })
          .createIndex('[sessionId+toolCallId]', ['sessionId', 'toolCallId']);
      };
      scratch = await request(opening);
      return JSON.stringify([...templates.started, ...templates.outcome, session]).length;
    };

    scope.chrome.runtime.onConnect.addListener((port) => {
      if (port.name === 'bench-ping') port.onMessage.addListener((message) => port.postMessage(message));
      if (port.name === 'bench-durable-port')
        port.onMessage.addListener(
          (message) => void durably(message as FloorMessage).then((reply) => port.postMessage(reply)),
        );
      if (port.name !== 'bench-floor') return;
      stagePort = port;
      port.onMessage.addListener((message) => {
        const key = (message as FloorMessage).n;
        const reply = pending.get(key);
        pending.delete(key);
        reply?.(message);
      });
    });
    scope.chrome.runtime.onMessage.addListener((raw, _sender, sendResponse) => {
      const message = raw as FloorMessage | undefined;
      if (message?.benchPing) {
        sendResponse(message);
        return false;
      }
      if (!message?.benchFloor || !stagePort) return undefined;
      void (message.benchDurable ? durably(message) : relay(message)).then(sendResponse);
      return true;
    });
    // The stage leg alone, timed inside the worker: port → stage → echo frame → stage → port.
    scope.benchStageLeg = async (count) => {
      const samples: number[] = [];
      for (let index = 0; index < count; index++) {
        const started = performance.now();
        await relay({ source: 'splitbrain:bench', n: `leg-${index}`, payload: { count: index % 100 } });
        samples.push(performance.now() - started);
      }
      return samples;
    };
  });
}

/** Makes the durable floor write copies of the rows the product wrote for a call of `sessionId`; their JSON size. */
export function useRowsOf(worker: WebWorker, sessionId: string): Promise<number> {
  return worker.evaluate((id) => (globalThis as unknown as WorkerGlobal).benchUseRowsOf!(id), sessionId);
}

/** In the stage page: a sandboxed echo frame beside the hosted target, and a bare port relay to it. */
export async function installStageRelay(stage: Page, echoUrl: string): Promise<void> {
  await stage.evaluate(async (url) => {
    const chrome = (globalThis as unknown as { chrome: BenchChrome }).chrome;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.title = 'bench echo';
    frame.style.cssText = 'position:fixed;right:0;bottom:0;width:2px;height:2px;border:0';
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.src = url;
    document.body.append(frame);
    await loaded;
    const port = chrome.runtime.connect({ name: 'bench-floor' });
    port.onMessage.addListener((message) => frame.contentWindow?.postMessage(message, '*'));
    window.addEventListener('message', (event) => {
      if (event.source === frame.contentWindow) port.postMessage(event.data);
    });
  }, echoUrl);
}

/** In the control page: a blob: child frame that sends the floor messages (see above). */
export async function installFloorSender(control: Page): Promise<Frame> {
  await control.evaluate(async () => {
    const frame = document.createElement('iframe');
    frame.name = 'bench-floor-sender';
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.src = URL.createObjectURL(new Blob(['<!doctype html><title>floor sender</title>'], { type: 'text/html' }));
    document.body.append(frame);
    await loaded;
  });
  const sender = control.frames().find((frame) => frame.name() === 'bench-floor-sender');
  if (!sender) throw new Error('The floor sender frame did not load.');
  return sender;
}

/**
 * Times `count` floor round trips from the sender frame: bare (`benchFloor`), with the durable floor's two commits
 * (`benchDurable`), or bare page↔worker pings (`benchPing`).
 */
export function timeFloor(
  sender: Frame,
  kind: 'benchFloor' | 'benchDurable' | 'benchPing',
  first: number,
  count: number,
): Promise<number[]> {
  return sender.evaluate(
    async (flag, start, total) => {
      const chrome = (globalThis as unknown as { chrome: BenchChrome }).chrome;
      const samples: number[] = [];
      const flags = flag === 'benchDurable' ? { benchFloor: true, benchDurable: true } : { [flag]: true };
      for (let index = start; index < start + total; index++) {
        const started = performance.now();
        const reply = (await chrome.runtime.sendMessage({
          ...flags,
          source: 'splitbrain:bench',
          n: index,
          payload: { count: index % 100 },
        })) as FloorMessage | undefined;
        samples.push(performance.now() - started);
        if (reply?.n !== index) throw new Error(`Floor message ${index} came back as ${JSON.stringify(reply)}`);
      }
      return samples;
    },
    kind,
    first,
    count,
  );
}

/**
 * The durable floor over one long-lived runtime port, as the product's pages now call the runtime: page → port →
 * worker (commit) → stage → echo frame → stage → worker (commit) → port → page. From the page itself (see below).
 */
export function timeDurablePortFloor(page: Frame, first: number, count: number): Promise<number[]> {
  return page.evaluate(
    async (start, total) => {
      const scope = globalThis as unknown as {
        chrome: BenchChrome;
        benchDurablePort?: BenchPort;
        benchDurableAnswer?: (message: unknown) => void;
      };
      if (!scope.benchDurablePort) {
        scope.benchDurablePort = scope.chrome.runtime.connect({ name: 'bench-durable-port' });
        scope.benchDurablePort.onMessage.addListener((message) => scope.benchDurableAnswer?.(message));
      }
      const port = scope.benchDurablePort;
      const samples: number[] = [];
      for (let index = start; index < start + total; index++) {
        const started = performance.now();
        const reply = (await new Promise<unknown>((resolve) => {
          scope.benchDurableAnswer = resolve;
          port.postMessage({ source: 'splitbrain:bench', n: index, payload: { count: index % 100 } });
        })) as FloorMessage;
        samples.push(performance.now() - started);
        if (reply.n !== index) throw new Error(`Durable port floor ${index} came back as ${JSON.stringify(reply)}`);
      }
      return samples;
    },
    first,
    count,
  );
}

export function timeStageLeg(worker: WebWorker, count: number): Promise<number[]> {
  return worker.evaluate((total) => (globalThis as unknown as WorkerGlobal).benchStageLeg!(total), count);
}

/**
 * Times `count` round trips over one long-lived runtime port (extension page ⇄ background), the alternative to
 * a sendMessage per call. From the page itself: the background disconnects ports of documents that are not its pages.
 */
export function timePortPing(sender: Frame, count: number): Promise<number[]> {
  return sender.evaluate(async (total) => {
    const chrome = (globalThis as unknown as { chrome: BenchChrome }).chrome;
    const port = chrome.runtime.connect({ name: 'bench-ping' });
    let answer: ((message: unknown) => void) | undefined;
    port.onMessage.addListener((message) => answer?.(message));
    const samples: number[] = [];
    for (let index = 0; index < total; index++) {
      const started = performance.now();
      const reply = (await new Promise<unknown>((resolve) => {
        answer = resolve;
        port.postMessage({ source: 'splitbrain:bench', n: index, payload: { count: index % 100 } });
      })) as FloorMessage;
      samples.push(performance.now() - started);
      if (reply.n !== index) throw new Error(`Port ping ${index} came back as ${JSON.stringify(reply)}`);
    }
    return samples;
  }, count);
}
