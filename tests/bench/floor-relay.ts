import type { Frame, Page, WebWorker } from 'puppeteer-core';

/**
 * The floor of the tool round trip: the product's hops with bare messages and no logic.
 *
 *   blob: frame of an extension page ─runtime.sendMessage─▶ background service worker
 *     ─runtime port "bench-floor"─▶ stage page ─window.postMessage─▶ sandboxed echo frame
 *   and back the same way: frame ─postMessage─▶ stage ─port─▶ worker ─sendResponse─▶ page.
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
  source: string;
  n: number | string;
}

interface WorkerGlobal {
  chrome: BenchChrome;
  benchStageLeg?(count: number): Promise<number[]>;
}

/** In the service worker: answers pings at once and relays floor messages to the stage's port and back. */
export async function installWorkerRelay(worker: WebWorker): Promise<void> {
  await worker.evaluate(() => {
    const scope = globalThis as unknown as WorkerGlobal;
    const pending = new Map<number | string, (message: unknown) => void>();
    let stagePort: BenchPort | undefined;
    scope.chrome.runtime.onConnect.addListener((port) => {
      if (port.name === 'bench-ping') port.onMessage.addListener((message) => port.postMessage(message));
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
      pending.set(message.n, sendResponse);
      stagePort.postMessage(message);
      return true;
    });
    // The stage leg alone, timed inside the worker: port → stage → echo frame → stage → port.
    scope.benchStageLeg = async (count) => {
      const samples: number[] = [];
      for (let index = 0; index < count; index++) {
        const key = `leg-${index}`;
        const started = performance.now();
        await new Promise((resolve) => {
          pending.set(key, resolve);
          stagePort!.postMessage({ source: 'splitbrain:bench', n: key, payload: { count: index % 100 } });
        });
        samples.push(performance.now() - started);
      }
      return samples;
    };
  });
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

/** Times `count` floor round trips (or bare page↔worker pings) from the sender frame. */
export function timeFloor(
  sender: Frame,
  kind: 'benchFloor' | 'benchPing',
  first: number,
  count: number,
): Promise<number[]> {
  return sender.evaluate(
    async (flag, start, total) => {
      const chrome = (globalThis as unknown as { chrome: BenchChrome }).chrome;
      const samples: number[] = [];
      for (let index = start; index < start + total; index++) {
        const started = performance.now();
        const reply = (await chrome.runtime.sendMessage({
          [flag]: true,
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
