import { runInNewContext } from 'node:vm';
import type { JobRecord } from '../../lib/jobs/job-ledger';
import { jobReport } from '../../lib/jobs/job-result';
import { EMPTY_OUTPUT } from '../../lib/jobs/output-window';
import { formatTreeLine } from '../../lib/page-observation/format-tree-line';
import type { PageTreeNode } from '../../lib/page-observation/page-tree-node';
import type { PageTab } from '../../lib/page-tools/choose-page';
import { memorySessionValues } from '../../lib/page-tools/session-values';
import type { PagePlatform } from '../../lib/page-tools/page-platform';
import { AGENT_EVENT_SCHEMA_VERSION } from '../../lib/protocol/agent-event';
import type { JsonValue } from '../../lib/protocol/json-value';
import type { PageObservationData, PageRequest } from '../../lib/protocol/page-wire';
import { PageLink } from '../../lib/page-tools/page-link';
import { pageObservationData } from './page-observation-data';

export type PageElement = Pick<PageTreeNode, 'role' | 'name' | 'ref' | 'disabled' | 'level'>;

/** A page whose observations and action results reach the model through the real PageLink (fences and all). */
export function fakePageLink(options: {
  readonly elements: readonly PageElement[];
  readonly tabs?: PageTab[];
  /** The page agent's failure for every action; without one each action hits the element of its ref. */
  readonly actFailure?: { code: 'COVERED' | 'NOT_FOUND'; reason: string };
}) {
  const acted: PageRequest[] = [];
  const tabs = options.tabs ?? [
    { tabId: 7, windowId: 1, url: 'http://127.0.0.1:4000/order.html', title: 'Order', active: true },
  ];
  const box = { x: 10, y: 20, width: 80, height: 30 };
  const observation = (): PageObservationData =>
    pageObservationData({
      url: 'http://127.0.0.1:4000/order.html',
      title: 'Order form',
      capturedAt: 1000,
      snapshot: options.elements
        .map((element) => formatTreeLine({ inViewport: true, children: [], ...element }, 0))
        .join('\n'),
      snapshotTokens: 40,
      refs: Object.fromEntries(
        options.elements.flatMap((element) =>
          element.ref
            ? [[element.ref, { role: element.role, name: element.name, tag: 'button', box, inViewport: true }]]
            : [],
        ),
      ),
    });
  const actReply = (request: Extract<PageRequest, { type: 'page/act' }>) => {
    if (options.actFailure) return { type: 'page/act-result', ok: false, ...options.actFailure };
    const ref = request.target?.kind === 'ref' ? request.target.ref : '';
    const element = options.elements.find((candidate) => candidate.ref === ref)!;
    return {
      type: 'page/act-result',
      ok: true,
      hit: { ref, role: element.role, name: element.name, tag: 'button', box },
      urlBefore: 'http://127.0.0.1:4000/order.html',
      urlAfter: 'http://127.0.0.1:4000/order.html',
      waited: { condition: 'settled', met: true, ms: 12 },
      trusted: false,
    };
  };
  const platform: PagePlatform = {
    tabs: async () => tabs,
    tab: async (tabId) => tabs.find((tab) => tab.tabId === tabId),
    hasAccess: async () => true,
    ensureAgent: async () => undefined,
    frames: async () => [{ frameId: 0, parentFrameId: -1, url: '' }],
    send: async (_tabId, _frameId, request) => {
      const typed = request as PageRequest;
      if (typed.type === 'page/observe') return { type: 'page/observation', observation: observation() };
      if (typed.type === 'page/act') {
        acted.push(typed);
        return actReply(typed);
      }
      return undefined;
    },
    capture: async () => new Uint8Array(),
    zoom: async () => 1,
    navigate: async () => undefined,
    back: async () => undefined,
    waitForLoad: async () => undefined,
    sessionValues: memorySessionValues(),
    openTab: async () => {
      throw new Error('The demo opens no tabs.');
    },
    activateTab: async () => undefined,
    closeTab: async () => undefined,
    groupTab: async () => undefined,
    watchTab: () => () => undefined,
  };
  let ids = 0;
  const link = new PageLink({
    platform,
    siteMode: async () => 'allow',
    storeScreenshot: async () => undefined,
    now: () => 5000,
    newId: () => `obs-${++ids}`,
    randomHex: () => '0123456789abcdef0123456789abcdef',
    sleep: async () => undefined,
  });
  return { link, acted };
}

/**
 * runScript as the model reads it, worded by the real `jobReport`. The code runs in a node:vm context here in
 * place of the sandbox worker, with the same contract: `return` a value, or end with an expression.
 */
export async function fakeRunScript(input: unknown): Promise<JsonValue> {
  const code = String((input as { code?: unknown }).code ?? '');
  const job: JobRecord = { jobId: 'job-1', background: false, state: 'completed', createdAt: 1000 };
  const envelope = {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    sessionId: 'demo',
    seq: 9,
    time: 1010,
    durable: true,
  } as const;
  try {
    const value: unknown = runInNewContext(/\breturn\b/.test(code) ? `(() => {${code}\n})()` : code, {});
    const result = JSON.stringify(value) ?? 'null';
    job.final = {
      ...envelope,
      type: 'job/completed',
      jobId: job.jobId,
      data: { result, resultBytes: new TextEncoder().encode(result).length, output: EMPTY_OUTPUT, durationMs: 3 },
    };
  } catch (error) {
    job.state = 'failed';
    job.final = {
      ...envelope,
      type: 'job/failed',
      jobId: job.jobId,
      data: { reason: 'exception', message: String(error), output: EMPTY_OUTPUT, durationMs: 3 },
    };
  }
  return jobReport(job);
}
