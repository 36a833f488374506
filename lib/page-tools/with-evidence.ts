import type { JsonObject } from '../protocol/json-value';
import { pageEvidenceReplySchema, type PageEvidence } from '../protocol/page-wire';
import type { ToolOutput } from '../protocol/tool-output';
import { originAndPath } from '../page-observation/script-source';
import { ActionDownloads } from './action-downloads';
import { ActionEvidence } from './action-evidence';
import type { PageFence } from './page-fence';
import type { PageLinkDependencies } from './page-link-dependencies';
import type { OpenPage } from './page-tool-inputs';

/** How long an action with `waitFor: download-complete` waits when it names no timeout. */
export const DOWNLOAD_WAIT_MS = 5_000;
const DOWNLOADS_NOT_GRANTED =
  'Splitbrain may not see downloads: the user has not granted the downloads permission (its tool card offers it).';

/**
 * Runs a side effect and adds what it changed and what went wrong to its result: each frame's record is emptied
 * before it, the tab is watched from then until the fresh observation is taken, and the records read again.
 */
export async function withEvidence(
  dependencies: PageLinkDependencies,
  page: OpenPage,
  fence: PageFence,
  run: () => Promise<ToolOutput>,
  downloadWaitMs?: number,
): Promise<ToolOutput> {
  const { tabId } = page.tab;
  const evidence = new ActionEvidence(page.tab.url ?? '');
  await readPageEvidence(dependencies, tabId);
  const stop = dependencies.platform.watchTab(tabId, (activity) => evidence.note(activity));
  const downloads = await watchDownloads(dependencies, page);
  try {
    const output = await run();
    const waited = downloads && downloadWaitMs !== undefined;
    const complete = waited ? await downloads.seen.waitComplete(downloadWaitMs, dependencies.sleep) : true;
    for (const frame of await readPageEvidence(dependencies, tabId))
      evidence.addPage(frame.evidence, frame.frameId === 0 ? undefined : `frame ${originAndPath(frame.url)}`);
    const found = downloads ? await downloads.seen.output(fence) : [];
    const listed: JsonObject =
      found.length > 0 || (downloads && waited)
        ? { downloads: found }
        : downloadWaitMs === undefined || downloads
          ? {}
          : { downloads: null, downloadsNote: DOWNLOADS_NOT_GRANTED };
    return {
      ...output,
      ...(complete ? {} : downloadTimeout(downloadWaitMs ?? 0)),
      evidence: evidence.output(fence),
      ...listed,
    };
  } finally {
    stop();
    downloads?.stop();
  }
}

/** The downloads an action starts from this tab's site, where the optional permission is held. */
async function watchDownloads(
  dependencies: PageLinkDependencies,
  page: OpenPage,
): Promise<{ seen: ActionDownloads; stop(): void } | undefined> {
  const downloads = dependencies.platform.downloads;
  if (!downloads || !(await downloads.permitted().catch(() => false))) return undefined;
  const seen = new ActionDownloads(URL.parse(page.tab.url ?? '')?.origin ?? page.origin);
  return { seen, stop: downloads.watch((download, created) => seen.note(download, created)) };
}

/** Each frame's record of console errors and dialogs since the last read (frames without a recorder left out). */
async function readPageEvidence(
  dependencies: PageLinkDependencies,
  tabId: number,
): Promise<{ frameId: number; url: string; evidence: PageEvidence }[]> {
  const { platform } = dependencies;
  const frames = await platform.frames(tabId).catch(() => [{ frameId: 0, parentFrameId: -1, url: '' }]);
  const read = await Promise.all(
    frames.map(async (frame) => {
      const reply = pageEvidenceReplySchema.safeParse(
        await platform.send(tabId, frame.frameId, { type: 'page/evidence' }).catch(() => undefined),
      );
      return reply.success && reply.data.bridge
        ? [{ frameId: frame.frameId, url: frame.url, evidence: reply.data.evidence }]
        : [];
    }),
  );
  return read.flat();
}

function downloadTimeout(timeoutMs: number): ToolOutput {
  const reason = `The action ran, but no download it started completed within ${timeoutMs} ms.`;
  return { ok: false, code: 'WAIT_TIMEOUT', error: `WAIT_TIMEOUT: ${reason}`, reason };
}
