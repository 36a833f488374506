import { errorText } from '../protocol/error-text';
import type { BlobRef } from '../protocol/blob-ref';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import {
  pageActResultSchema,
  pageEvidenceReplySchema,
  pageObservationReplySchema,
  pageToolResultSchema,
  type PageEvidence,
  type PageObservationData,
  type PageRequest,
  type PageUploadFile,
} from '../protocol/page-wire';
import {
  choosePage,
  chooseTab,
  pageRefusal,
  siteLabel,
  siteOrigin,
  type PageChoice,
  type PanelPlace,
} from './choose-page';
import { pageGate, type PageGate } from './page-approval';
import { stitchFrames, type FrameObservation } from '../page-observation/stitch-frames';
import { cssPixelsPerScreenshotPixel } from '../page-observation/screenshot-point';
import { drawMarks } from '../page-observation/draw-marks';
import { marksFor, marksLegend, type ScreenshotMark } from '../page-observation/set-of-marks';
import { actRequest, actTarget } from './act-request';
import { ActionEvidence } from './action-evidence';
import { originAndPath } from '../page-observation/script-source';
import { newPageFence, type PageFence } from './page-fence';
import type { ObservationRecord } from './page-observation';
import { observationRecord } from './observation-record';
import { fencedObservation, fencedText } from './page-output';
import type { PagePlatform } from './page-platform';
import type { SiteMode } from '../settings/site-modes-store';
import {
  isPageToolName,
  pageToolInputSchemas,
  type OpenPage,
  type PageToolInput,
  type PageToolName,
} from './page-tool-inputs';
import type { ToolOutput } from '../protocol/tool-output';
import { ObservationTable } from './observation-table';
import { SpacedCalls } from './spaced-calls';
import { TabControl } from './tab-control';
import { ActionDownloads } from './action-downloads';
import { bytesToBase64 } from '../files/bytes-to-base64';
import { formatFileSize } from '../files/format-file-size';
import { isTabToolName, tabToolInputSchemas, type TabToolName } from './tab-tool-inputs';

export interface PageLinkDependencies {
  platform: PagePlatform;
  siteMode(origin: string): Promise<SiteMode>;
  /** Stores a screenshot as a blob of the session, owned by the call; undefined when it was refused. */
  storeScreenshot(bytes: Uint8Array, sessionId: string, ownerId: string): Promise<BlobRef | undefined>;
  now(): number;
  newId(): string;
  /** At least 16 random bytes as hex, fresh on every call. */
  randomHex(): string;
  sleep(ms: number): Promise<void>;
  /** Draws Set-of-Marks on a captured PNG (default: lib/page-observation/draw-marks.ts). */
  drawMarks?(png: Uint8Array, marks: ScreenshotMark[], viewportWidth: number): Promise<Uint8Array>;
  /** The conversation's title, which names its tab group; absent: the group is named "Splitbrain". */
  sessionTitle?(sessionId: string): Promise<string>;
  /** The newest file of that name (or sha256) the user attached in this conversation; no other conversation's. */
  attachedFile?(sessionId: string, file: string): Promise<BlobRef | undefined>;
  readBlob?(blobId: string): Promise<Uint8Array | undefined>;
}

export interface PageCallContext {
  sessionId: string;
  toolCallId: string;
}

/** What the panel shows above the composer: the page the tools will act on, or why there is none. */
export type CurrentPage =
  | { ok: true; title: string; origin: string; url: string; access: boolean; mode: SiteMode }
  | { ok: false; reason: string };

/** Chrome allows two `captureVisibleTab` calls a second; a little more than half a second apart keeps under it. */
const CAPTURE_SPACING_MS = 550;
const LOAD_TIMEOUT_MS = 10_000;
/** An upload travels to the page as base64 in one runtime message; this keeps it well under Chrome's 64 MB. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
const DOWNLOAD_WAIT_MS = 5_000;
const DOWNLOADS_NOT_GRANTED =
  'Splitbrain may not see downloads: the user has not granted the downloads permission (its tool card offers it).';
const PAUSED_SINCE =
  'That observation is from before the pause: the person may have changed the page since. Use the fresh observation.';

type ObserveOptions = PageToolInput<'observePage'>;

/**
 * The runtime's side of computer use: which page, site access, the observation table, and the page tools. Every
 * action quotes an observation; the page agent checks the recorded expectation atomically in the page, and a
 * failed check comes back with a fresh observation in the same reply.
 */
export class PageLink {
  private readonly observations = new ObservationTable();
  private readonly places = new Map<string, PanelPlace>();
  private lastPlace: PanelPlace = {};
  /** The origin each gated call was judged on, first time only: an approval is for that site and no other. */
  private readonly judgedOrigins = new Map<string, string>();
  private readonly captures: SpacedCalls;
  private readonly tabControl: TabControl;
  /** The tabs each session's agent acted in during its current turn: they show the acting badge. */
  private readonly actingTabs = new Map<string, Set<number>>();

  constructor(private readonly dependencies: PageLinkDependencies) {
    this.captures = new SpacedCalls(CAPTURE_SPACING_MS, dependencies);
    this.tabControl = new TabControl({
      platform: dependencies.platform,
      siteMode: dependencies.siteMode,
      sessionTitle: dependencies.sessionTitle ?? (async () => ''),
    });
  }

  /** Where a session's panel runs, as it last said; the page tools of that session act in its window. */
  notePanel(sessionId: string | undefined, place: PanelPlace): void {
    this.lastPlace = place;
    if (sessionId) this.places.set(sessionId, place);
  }

  /** The conversation is deleted: its record of tabs goes with it (its tabs stay open, now the user's). */
  forgetSession(sessionId: string): Promise<void> {
    return this.tabControl.tabs.forgetSession(sessionId);
  }

  async current(sessionId?: string): Promise<CurrentPage> {
    const page = await this.choose(sessionId);
    if (!page.ok) return { ok: false, reason: page.reason };
    return {
      ok: true,
      title: page.title,
      origin: page.origin,
      url: page.tab.url ?? '',
      access: await this.dependencies.platform.hasAccess(page.origin),
      mode: await this.dependencies.siteMode(page.origin),
    };
  }

  /** Whether a page tool call waits for the user (site access first, then the always-ask gates, then the site's mode). */
  async gate(toolName: string, input: JsonValue, call: PageCallContext): Promise<PageGate> {
    const page = await this.choose(call.sessionId);
    if (isTabToolName(toolName))
      return this.tabControl.gate(toolName, isRecord(input) ? input : {}, this.tabContext(call, page));
    const observationId = isRecord(input) && typeof input.observationId === 'string' ? input.observationId : '';
    const observation = this.observations.get(observationId);
    const key = callKey(call);
    if (page.ok && !this.judgedOrigins.has(key)) this.judgedOrigins.set(key, page.origin);
    const file = toolName === 'uploadFile' && isRecord(input) ? await this.attached(call, input.file) : undefined;
    return pageGate(toolName, input, {
      page,
      access: page.ok && (await this.dependencies.platform.hasAccess(page.origin)),
      mode: page.ok ? await this.dependencies.siteMode(page.origin) : 'ask',
      ...(observation ? { observation } : {}),
      ...(toolName === 'uploadFile' ? { file: file ?? null } : {}),
    });
  }

  /**
   * A paused turn resumes: the person may have changed the page, so every observation the session held is retired
   * (an action quoting one is refused as stale) and the page is observed afresh for the model.
   */
  async observeAfterPause(sessionId: string, callId: string): Promise<ToolOutput> {
    this.observations.retire(sessionId, PAUSED_SINCE);
    return this.execute('observePage', {}, { sessionId, toolCallId: callId });
  }

  /** The session's turn ended or paused: the badge goes from every tab it acted in. */
  actingEnded(sessionId: string): void {
    const tabs = this.actingTabs.get(sessionId);
    this.actingTabs.delete(sessionId);
    for (const tabId of tabs ?? []) this.sendBadge(tabId, false);
  }

  /** The sessions whose agent acts in this tab now: a Stop on its badge stops their turns. */
  sessionsActingIn(tabId: number): string[] {
    return [...this.actingTabs].filter(([, tabs]) => tabs.has(tabId)).map(([sessionId]) => sessionId);
  }

  private acting(sessionId: string, tabId: number): void {
    const tabs = this.actingTabs.get(sessionId) ?? new Set<number>();
    tabs.add(tabId);
    this.actingTabs.set(sessionId, tabs);
    this.sendBadge(tabId, true);
  }

  private sendBadge(tabId: number, acting: boolean): void {
    void this.dependencies.platform.send(tabId, 0, { type: 'page/badge', acting }).catch(() => undefined);
  }

  async execute(toolName: string, input: JsonValue, call: PageCallContext): Promise<ToolOutput> {
    if (isTabToolName(toolName)) return this.executeTabTool(toolName, input, call);
    if (!isPageToolName(toolName)) return { ok: false, error: `${toolName} is not a page tool.` };
    const parsed = pageToolInputSchemas[toolName].safeParse(input ?? {});
    if (!parsed.success) return { ok: false, error: `Invalid input for ${toolName}: ${parsed.error.message}` };
    const page = await this.choose(call.sessionId);
    if (!page.ok) return { ok: false, code: 'NO_PAGE', error: page.reason, reason: page.reason };
    if (!(await this.dependencies.platform.hasAccess(page.origin)))
      return {
        ok: false,
        code: 'NO_SITE_ACCESS',
        origin: page.origin,
        error: `NO_SITE_ACCESS: Splitbrain may not read or act on ${siteLabel(page.origin)}.`,
      };
    const judged = this.judgedOrigins.get(callKey(call));
    this.judgedOrigins.delete(callKey(call));
    const changed = this.changedSinceApproval(page, judged);
    if (changed) return changed;
    const fence = newPageFence(this.dependencies.randomHex);
    if (toolName === 'observePage') return this.perform(toolName, page, call, parsed.data, fence);
    this.acting(call.sessionId, page.tab.tabId);
    const waitFor = 'waitFor' in parsed.data ? parsed.data.waitFor : undefined;
    const downloadWait =
      waitFor?.condition === 'download-complete' ? (waitFor.timeoutMs ?? DOWNLOAD_WAIT_MS) : undefined;
    return this.withEvidence(page, fence, () => this.perform(toolName, page, call, parsed.data, fence), downloadWait);
  }

  /**
   * Runs a side effect and adds what it changed and what went wrong to its result: each frame's record is emptied
   * before it, the tab is watched from then until the fresh observation is taken, and the records read again.
   */
  private async withEvidence(
    page: OpenPage,
    fence: PageFence,
    run: () => Promise<ToolOutput>,
    downloadWaitMs?: number,
  ): Promise<ToolOutput> {
    const { tabId } = page.tab;
    const evidence = new ActionEvidence(page.tab.url ?? '');
    await this.readPageEvidence(tabId);
    const stop = this.dependencies.platform.watchTab(tabId, (activity) => evidence.note(activity));
    const downloads = await this.watchDownloads(page);
    try {
      const output = await run();
      const waited = downloads && downloadWaitMs !== undefined;
      const complete = waited ? await downloads.seen.waitComplete(downloadWaitMs, this.dependencies.sleep) : true;
      for (const frame of await this.readPageEvidence(tabId))
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
  private async watchDownloads(page: OpenPage): Promise<{ seen: ActionDownloads; stop(): void } | undefined> {
    const downloads = this.dependencies.platform.downloads;
    if (!downloads || !(await downloads.permitted().catch(() => false))) return undefined;
    const seen = new ActionDownloads(URL.parse(page.tab.url ?? '')?.origin ?? page.origin);
    return { seen, stop: downloads.watch((download, created) => seen.note(download, created)) };
  }

  /** The attached file a call names, of this conversation only. */
  private async attached(call: PageCallContext, file: JsonValue | undefined): Promise<BlobRef | undefined> {
    if (typeof file !== 'string' || !this.dependencies.attachedFile) return undefined;
    return this.dependencies.attachedFile(call.sessionId, file).catch(() => undefined);
  }

  /** Each frame's record of console errors and dialogs since the last read (frames without a recorder left out). */
  private async readPageEvidence(tabId: number): Promise<{ frameId: number; url: string; evidence: PageEvidence }[]> {
    const { platform } = this.dependencies;
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

  private perform(
    toolName: PageToolName,
    page: OpenPage,
    call: PageCallContext,
    input: PageToolInput<PageToolName>,
    fence: PageFence,
  ): Promise<ToolOutput> {
    switch (toolName) {
      case 'observePage':
        return this.observeOutput(page, call, input as PageToolInput<'observePage'>, fence);
      case 'actOnPage':
        return this.act(page, call, input as PageToolInput<'actOnPage'>, fence);
      case 'uploadFile':
        return this.upload(page, call, input as PageToolInput<'uploadFile'>, fence);
      case 'navigatePage':
        return this.navigate(page, call, (input as PageToolInput<'navigatePage'>).url, fence);
      case 'pageBack':
        return this.back(page, call, fence);
      case 'callPageTool':
        return this.callPageTool(page, call, input as PageToolInput<'callPageTool'>, fence);
    }
  }

  /** A gated call runs only on the site it was judged on: the user approved an action there, not on another tab. */
  private changedSinceApproval(page: OpenPage, judged: string | undefined): ToolOutput | undefined {
    if (judged === undefined || judged === page.origin) return undefined;
    return denied(`The page changed to ${siteLabel(page.origin)} since this call was judged on ${siteLabel(judged)}.`);
  }

  private tabContext(call: PageCallContext, page: PageChoice) {
    const place = this.places.get(call.sessionId) ?? this.lastPlace;
    return { sessionId: call.sessionId, ...place, page };
  }

  /** A tab tool; a tab it brings in front of the conversation is observed into its answer, where access allows. */
  private async executeTabTool(toolName: TabToolName, input: JsonValue, call: PageCallContext): Promise<ToolOutput> {
    const parsed = tabToolInputSchemas[toolName].safeParse(input ?? {});
    if (!parsed.success) return { ok: false, error: `Invalid input for ${toolName}: ${parsed.error.message}` };
    const fence = newPageFence(this.dependencies.randomHex);
    const context = this.tabContext(call, await this.choose(call.sessionId));
    const step = await this.tabControl.execute(toolName, parsed.data, context, fence);
    if (!step.observe || !step.output.ok) return step.output;
    const page = chooseTab(step.observe);
    if (!page.ok) return { ...step.output, observation: null };
    if (!(await this.dependencies.platform.hasAccess(page.origin)))
      return {
        ...step.output,
        observation: null,
        observeNote: `observePage asks for access to ${siteLabel(page.origin)}.`,
      };
    const observed = await this.observe(page, call).catch(() => undefined);
    return {
      ...step.output,
      observation: observed?.ok ? fencedObservation(observed.record, observed.data, undefined, fence) : null,
    };
  }

  /** The conversation's current tab while it is open, else the page in front of its panel's window. */
  private async choose(sessionId?: string): Promise<PageChoice> {
    const current = sessionId ? await this.tabControl.currentTab(sessionId) : undefined;
    if (current) return chooseTab(current);
    const place = (sessionId && this.places.get(sessionId)) || this.lastPlace;
    return choosePage(await this.dependencies.platform.tabs(place.windowId), place);
  }

  async observeOutput(
    page: OpenPage,
    call: PageCallContext,
    options: ObserveOptions,
    fence: PageFence,
  ): Promise<ToolOutput> {
    const observed = await this.observe(page, call, options);
    if (!observed.ok) return observed.output;
    const marks: JsonObject = observed.marks ? { marks: observed.marks } : {};
    const missing: JsonObject = observed.screenshotUnavailable
      ? { screenshotUnavailable: observed.screenshotUnavailable }
      : {};
    return {
      ok: true,
      ...fencedObservation(observed.record, observed.data, observed.screenshot, fence),
      ...marks,
      ...missing,
    };
  }

  /** Observes the page and records the observation; the data and the record, or a failure to return. */
  private async observe(
    page: OpenPage,
    call: PageCallContext,
    options: ObserveOptions = {},
  ): Promise<
    | {
        ok: true;
        record: ObservationRecord;
        data: PageObservationData;
        screenshot?: BlobRef;
        marks?: Record<string, string>;
        /** Why a screenshot that was asked for is missing. */
        screenshotUnavailable?: string;
      }
    | { ok: false; output: ToolOutput }
  > {
    const { platform } = this.dependencies;
    const { tabId } = page.tab;
    await platform.ensureAgent(tabId);
    const request: PageRequest = {
      type: 'page/observe',
      ...(options.scope && /^e\d+$/.test(options.scope) ? { scope: options.scope } : {}),
      ...(options.find ? { find: options.find } : {}),
    };
    const frames = await this.observeFrames(tabId, request);
    const top = frames.find((frame) => frame.frameId === 0);
    if (!top) return { ok: false, output: pageFailure('PAGE_UNAVAILABLE', 'The page did not answer.') };
    const stitched = frames.length > 1 ? stitchFrames(frames) : { snapshot: top.observation.snapshot, prefixes: {} };
    const data: PageObservationData = {
      ...top.observation,
      snapshot: stitched.snapshot,
      events: frames.flatMap((frame) => frame.observation.events).slice(-50),
    };
    const zoom = await platform.zoom(tabId).catch(() => 1);
    const taken = options.screenshot ? await this.screenshot(page, call, data, options.marks === true) : undefined;
    const shot = taken && 'ref' in taken ? taken : undefined;
    const record = observationRecord(this.dependencies.newId(), page, frames, stitched.prefixes, zoom, shot);
    this.observations.add(record, call.sessionId);
    return {
      ok: true,
      record,
      data,
      ...(shot ? { screenshot: shot.ref } : {}),
      ...(shot?.marks ? { marks: shot.marks } : {}),
      ...(taken && 'unavailable' in taken ? { screenshotUnavailable: taken.unavailable } : {}),
    };
  }

  /** Every permitted frame's own observation; a frame the agent is not in (not permitted, gone) is left out. */
  private async observeFrames(tabId: number, request: PageRequest): Promise<FrameObservation[]> {
    const { platform } = this.dependencies;
    const frames = await platform.frames(tabId).catch(() => [{ frameId: 0, parentFrameId: -1, url: '' }]);
    const observed = await Promise.all(
      frames.map(async (frame) => {
        const reply = pageObservationReplySchema.safeParse(
          await platform
            .send(tabId, frame.frameId, frame.frameId === 0 ? request : { type: 'page/observe' })
            .catch(() => undefined),
        );
        return reply.success
          ? [{ frameId: frame.frameId, parentFrameId: frame.parentFrameId, observation: reply.data.observation }]
          : [];
      }),
    );
    return observed.flat();
  }

  private async screenshot(
    page: OpenPage,
    call: PageCallContext,
    data: PageObservationData,
    withMarks: boolean,
  ): Promise<{ ref: BlobRef; cssPerPixel: number; marks?: Record<string, string> } | { unavailable: string }> {
    // captureVisibleTab shows the window's active tab only; a page behind the panel's own tab cannot be captured.
    if (!page.tab.active)
      return { unavailable: 'Only the tab in front of its window can be captured, and this page is behind another.' };
    let captured: Uint8Array;
    try {
      captured = await this.captures.run(() => this.dependencies.platform.capture(page.tab.windowId));
    } catch (error) {
      return { unavailable: captureFailure(errorText(error)) };
    }
    const marks = withMarks ? marksFor(data.refs, data.viewport) : [];
    const draw = this.dependencies.drawMarks ?? drawMarks;
    const marked = withMarks ? await draw(captured, marks, data.viewport.width).catch(() => undefined) : undefined;
    const ref = await this.dependencies.storeScreenshot(marked ?? captured, call.sessionId, call.toolCallId);
    if (!ref?.width) return { unavailable: 'The screenshot could not be stored.' };
    const legend = marked ? { marks: marksLegend(marks) } : {};
    return { ref, cssPerPixel: cssPixelsPerScreenshotPixel(data.viewport, ref.width), ...legend };
  }

  private async freshObservation(page: OpenPage, call: PageCallContext, fence: PageFence): Promise<JsonObject | null> {
    const current = (await this.choose(call.sessionId)) ?? page;
    const observed = await this.observe(current.ok ? current : page, call).catch(() => undefined);
    return observed?.ok ? fencedObservation(observed.record, observed.data, undefined, fence) : null;
  }

  /** Puts a file the user attached in this conversation into a file input or a drop zone of the observed page. */
  async upload(
    page: OpenPage,
    call: PageCallContext,
    input: PageToolInput<'uploadFile'>,
    fence: PageFence,
  ): Promise<ToolOutput> {
    const ref = await this.attached(call, input.file);
    const refused = (code: string, reason: string) => this.failed(code, reason, page, call, fence);
    if (!ref)
      return refused(
        'FILE_NOT_ATTACHED',
        `No file "${input.file.slice(0, 200)}" is attached in this conversation: only a file the user attached here can be uploaded.`,
      );
    if (ref.size > UPLOAD_MAX_BYTES)
      return refused(
        'FILE_TOO_LARGE',
        `"${ref.name}" is ${formatFileSize(ref.size)}; at most ${formatFileSize(UPLOAD_MAX_BYTES)} can be uploaded into a page.`,
      );
    const bytes = await this.dependencies.readBlob?.(ref.blobId).catch(() => undefined);
    if (!bytes) return refused('FILE_UNAVAILABLE', `The bytes of "${ref.name}" are no longer stored.`);
    const { file: _, ...target } = input;
    const output = await this.act(page, call, { ...target, action: 'focus' }, fence, {
      name: ref.name,
      type: ref.mime,
      base64: bytesToBase64(bytes),
    });
    return { ...output, file: { name: ref.name, size: ref.size, type: ref.mime } };
  }

  async act(
    page: OpenPage,
    call: PageCallContext,
    input: PageToolInput<'actOnPage'>,
    fence: PageFence,
    file?: PageUploadFile,
  ): Promise<ToolOutput> {
    const record = this.observations.get(input.observationId);
    const stale = this.observations.retiredBecause(input.observationId) ?? (await this.staleReason(record, page));
    if (stale || !record) return this.failed('STALE_OBSERVATION', stale ?? 'Unknown observation.', page, call, fence);
    const target = await actTarget(input, record, (tabId) => this.dependencies.platform.zoom(tabId));
    if (!target.ok) return this.failed(target.code, target.reason, page, call, fence);
    const request = actRequest(input, record, target);
    if (!request.ok) return { ok: false, code: 'INVALID_INPUT', error: request.reason };
    const { platform } = this.dependencies;
    await platform.ensureAgent(record.tabId);
    const sent = file ? { ...request.request, action: 'upload', file } : request.request;
    const reply = pageActResultSchema.safeParse(await platform.send(record.tabId, target.frameId, sent));
    if (!reply.success) return this.failed('PAGE_UNAVAILABLE', 'The page did not answer.', page, call, fence);
    const result = reply.data;
    if (result.ok && result.unloading) await platform.waitForLoad(record.tabId, LOAD_TIMEOUT_MS);
    const observation = await this.freshObservation(page, call, fence);
    if (!result.ok)
      return {
        ok: false,
        code: result.code,
        error: `${result.code}: ${result.reason}`.slice(0, 2000),
        reason: fence.wrap(result.reason),
        ...(result.covering
          ? { covering: fence.wrap(`${result.covering.role} "${result.covering.name}" <${result.covering.tag}>`) }
          : {}),
        ...(result.hit ? { hit: fencedHit(result.hit, fence) } : {}),
        ...(result.waited ? { waited: result.waited } : {}),
        observation,
      };
    return {
      ok: true,
      hit: fencedHit(result.hit, fence),
      urlBefore: result.urlBefore,
      urlAfter: result.urlAfter,
      waited: result.waited,
      trusted: result.trusted,
      observation,
    };
  }

  async navigate(page: OpenPage, call: PageCallContext, url: string, fence: PageFence): Promise<ToolOutput> {
    const parsed = URL.parse(url);
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || pageRefusal(url))
      return {
        ok: false,
        code: 'INVALID_INPUT',
        error: `Only http(s) web pages can be opened, not "${url.slice(0, 200)}".`,
      };
    const urlBefore = page.tab.url ?? '';
    await this.dependencies.platform.navigate(page.tab.tabId, parsed.href, LOAD_TIMEOUT_MS);
    return this.afterNavigation(page, call, urlBefore, fence);
  }

  async back(page: OpenPage, call: PageCallContext, fence: PageFence): Promise<ToolOutput> {
    const urlBefore = page.tab.url ?? '';
    await this.dependencies.platform.back(page.tab.tabId, LOAD_TIMEOUT_MS);
    return this.afterNavigation(page, call, urlBefore, fence);
  }

  private async afterNavigation(
    page: OpenPage,
    call: PageCallContext,
    urlBefore: string,
    fence: PageFence,
  ): Promise<ToolOutput> {
    const tab = await this.dependencies.platform.tab(page.tab.tabId);
    const urlAfter = tab?.url ?? '';
    const now =
      tab && pageRefusal(urlAfter) === undefined
        ? { ...page, tab, origin: siteOrigin(urlAfter), title: tab.title ?? '' }
        : undefined;
    const access = now ? await this.dependencies.platform.hasAccess(now.origin) : false;
    const observed = now && access ? await this.observe(now, call).catch(() => undefined) : undefined;
    if (!observed?.ok)
      return {
        ok: false,
        code: now && !access ? 'NO_SITE_ACCESS' : 'NAVIGATION_FAILED',
        error:
          now && !access
            ? `NO_SITE_ACCESS: the page is now on ${siteLabel(now.origin)}.`
            : `The page at ${urlAfter || 'that address'} did not load.`,
        ...(now && !access ? { origin: now.origin } : {}),
        urlBefore,
        urlAfter,
      };
    return {
      ok: true,
      urlBefore,
      urlAfter,
      observation: fencedObservation(observed.record, observed.data, undefined, fence),
    };
  }

  async callPageTool(
    page: OpenPage,
    call: PageCallContext,
    input: PageToolInput<'callPageTool'>,
    fence: PageFence,
  ): Promise<ToolOutput> {
    const record = this.observations.get(input.observationId);
    const stale = this.observations.retiredBecause(input.observationId) ?? (await this.staleReason(record, page));
    if (stale || !record) return this.failed('STALE_OBSERVATION', stale ?? 'Unknown observation.', page, call, fence);
    const request: PageRequest = {
      type: 'page/call-tool',
      documentId: record.documentId,
      name: input.name,
      arguments: (input.arguments ?? {}) as JsonValue,
    };
    await this.dependencies.platform.ensureAgent(record.tabId);
    const reply = pageToolResultSchema.safeParse(
      await this.dependencies.platform.send(record.tabId, record.frameId, request),
    );
    if (!reply.success) return this.failed('PAGE_UNAVAILABLE', 'The page did not answer.', page, call, fence);
    if (!reply.data.ok) return this.failed(reply.data.code, reply.data.reason, page, call, fence);
    return {
      ok: true,
      name: input.name,
      result: fencedText(reply.data.result, fence),
      observation: await this.freshObservation(page, call, fence),
    };
  }

  /** Why an action may not quote this observation: unknown, or of another tab than the conversation's current one. */
  private async staleReason(record: ObservationRecord | undefined, page: OpenPage): Promise<string | undefined> {
    if (!record)
      return 'That observation is not known (too old, or the extension restarted): use the fresh observation.';
    if (record.tabId === page.tab.tabId) return undefined;
    const current = page.tab.tabId;
    const open = await this.dependencies.platform.tab(record.tabId).catch(() => undefined);
    return open
      ? `That observation is of tab ${record.tabId}, not of this conversation's current tab ${current}: switchTab to it first, or use the fresh observation of tab ${current}.`
      : `That observation is of tab ${record.tabId}, which is closed: use the fresh observation of tab ${current}.`;
  }

  private async failed(
    code: string,
    reason: string,
    page: OpenPage,
    call: PageCallContext,
    fence: PageFence,
  ): Promise<ToolOutput> {
    return {
      ...pageFailure(code, fence.wrap(reason)),
      error: `${code}: ${reason}`.slice(0, 2000),
      observation: await this.freshObservation(page, call, fence),
    };
  }
}

function fencedHit(
  hit: { ref: string; role: string; name: string; tag: string; box: JsonObject },
  fence: PageFence,
): JsonObject {
  return { ref: hit.ref, role: hit.role, name: fence.wrap(hit.name), tag: hit.tag, box: hit.box };
}

function pageFailure(code: string, reason: string): ToolOutput {
  return { ok: false, code, error: `${code}: ${reason}`.slice(0, 2000), reason };
}

function downloadTimeout(timeoutMs: number): ToolOutput {
  const reason = `The action ran, but no download it started completed within ${timeoutMs} ms.`;
  return { ok: false, code: 'WAIT_TIMEOUT', error: `WAIT_TIMEOUT: ${reason}`, reason };
}

function denied(reason: string): ToolOutput {
  return { ok: false, code: 'DENIED', error: `DENIED: ${reason}`, reason };
}

function isRecord(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function callKey(call: PageCallContext): string {
  return `${call.sessionId}\u0000${call.toolCallId}`;
}

/** Chrome captures a tab only with access to all sites or the user's invocation (activeTab), not a site's grant. */
function captureFailure(message: string): string {
  if (/<all_urls>|activeTab/.test(message))
    return 'The browser lets Splitbrain capture a tab only with access to all sites, or after the user clicks its toolbar button (or shortcut) on that page; access to this site alone is not enough. Ask the user for one of them, or go on without a screenshot.';
  return `The screenshot failed: ${message}`;
}
