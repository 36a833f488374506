import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import type { SiteMode } from '../settings/site-modes-store';
import { ActingTabs } from './acting-tabs';
import { actOnPage } from './act-on-page';
import { callPageTool } from './call-page-tool';
import { choosePage, chooseTab, siteLabel, type PageChoice, type PanelPlace } from './choose-page';
import { navigatePage, pageBack } from './navigate-page';
import { ObservationTable } from './observation-table';
import { observePage, observePageOutput } from './observe-page';
import { pageGate, type PageGate } from './page-approval';
import { denied } from './page-failure';
import { newPageFence, type PageFence } from './page-fence';
import type { PageLinkDependencies } from './page-link-dependencies';
import { fencedObservation } from './page-output';
import { CAPTURE_SPACING_MS } from './page-screenshot';
import {
  isPageToolName,
  pageToolInputSchemas,
  type OpenPage,
  type PageToolInput,
  type PageToolName,
} from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';
import { SpacedCalls } from './spaced-calls';
import { TabControl } from './tab-control';
import { isTabToolName, tabToolInputSchemas, type TabToolName } from './tab-tool-inputs';
import { attachedFile, uploadFile } from './upload-file';
import { DOWNLOAD_WAIT_MS, withEvidence } from './with-evidence';

/** What the panel shows above the composer: the page the tools will act on, or why there is none. */
export type CurrentPage =
  | { ok: true; title: string; origin: string; url: string; access: boolean; mode: SiteMode }
  | { ok: false; reason: string };

const PAUSED_SINCE =
  'That observation is from before the pause: the person may have changed the page since. Use the fresh observation.';

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
  private readonly tabControl: TabControl;
  private readonly actingTabs: ActingTabs;
  private readonly context: PageToolContext;

  constructor(private readonly dependencies: PageLinkDependencies) {
    this.tabControl = new TabControl({
      platform: dependencies.platform,
      siteMode: dependencies.siteMode,
      sessionTitle: dependencies.sessionTitle ?? (async () => ''),
    });
    this.actingTabs = new ActingTabs(dependencies.platform);
    this.context = {
      dependencies,
      observations: this.observations,
      captures: new SpacedCalls(CAPTURE_SPACING_MS, dependencies),
      choose: (sessionId) => this.choose(sessionId),
    };
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
    const file =
      toolName === 'uploadFile' && isRecord(input)
        ? await attachedFile(this.dependencies, call, input.file)
        : undefined;
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
    this.actingTabs.ended(sessionId);
  }

  /** The sessions whose agent acts in this tab now: a Stop on its badge stops their turns. */
  sessionsActingIn(tabId: number): string[] {
    return this.actingTabs.sessionsIn(tabId);
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
    const changed = changedSinceApproval(page, judged);
    if (changed) return changed;
    const fence = newPageFence(this.dependencies.randomHex);
    if (toolName === 'observePage') return this.perform(toolName, page, call, parsed.data, fence);
    this.actingTabs.acting(call.sessionId, page.tab.tabId);
    const waitFor = 'waitFor' in parsed.data ? parsed.data.waitFor : undefined;
    const downloadWait =
      waitFor?.condition === 'download-complete' ? (waitFor.timeoutMs ?? DOWNLOAD_WAIT_MS) : undefined;
    return withEvidence(
      this.dependencies,
      page,
      fence,
      () => this.perform(toolName, page, call, parsed.data, fence),
      downloadWait,
    );
  }

  private perform(
    toolName: PageToolName,
    page: OpenPage,
    call: PageCallContext,
    input: PageToolInput<PageToolName>,
    fence: PageFence,
  ): Promise<ToolOutput> {
    const { context } = this;
    switch (toolName) {
      case 'observePage':
        return observePageOutput(context, page, call, input as PageToolInput<'observePage'>, fence);
      case 'actOnPage':
        return actOnPage(context, page, call, input as PageToolInput<'actOnPage'>, fence);
      case 'uploadFile':
        return uploadFile(context, page, call, input as PageToolInput<'uploadFile'>, fence);
      case 'navigatePage':
        return navigatePage(context, page, call, (input as PageToolInput<'navigatePage'>).url, fence);
      case 'pageBack':
        return pageBack(context, page, call, fence);
      case 'callPageTool':
        return callPageTool(context, page, call, input as PageToolInput<'callPageTool'>, fence);
    }
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
    const observed = await observePage(this.context, page, call).catch(() => undefined);
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
}

/** A gated call runs only on the site it was judged on: the user approved an action there, not on another tab. */
function changedSinceApproval(page: OpenPage, judged: string | undefined): ToolOutput | undefined {
  if (judged === undefined || judged === page.origin) return undefined;
  return denied(`The page changed to ${siteLabel(page.origin)} since this call was judged on ${siteLabel(judged)}.`);
}

function isRecord(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function callKey(call: PageCallContext): string {
  return `${call.sessionId}\u0000${call.toolCallId}`;
}
