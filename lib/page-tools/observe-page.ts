import type { BlobRef } from '../protocol/blob-ref';
import type { JsonObject } from '../protocol/json-value';
import { pageObservationReplySchema, type PageObservationData, type PageRequest } from '../protocol/page-wire';
import type { ToolOutput } from '../protocol/tool-output';
import { stitchFrames, type FrameObservation } from '../page-observation/stitch-frames';
import type { PageFence } from './page-fence';
import type { ObservationRecord } from './page-observation';
import { observationRecord } from './observation-record';
import { fencedObservation } from './page-output';
import { pageFailure } from './page-failure';
import { pageScreenshot } from './page-screenshot';
import type { OpenPage, PageToolInput } from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';

type ObserveOptions = PageToolInput<'observePage'>;

export type ObservedPage =
  | {
      ok: true;
      record: ObservationRecord;
      data: PageObservationData;
      screenshot?: BlobRef;
      marks?: Record<string, string>;
      /** Why a screenshot that was asked for is missing. */
      screenshotUnavailable?: string;
    }
  | { ok: false; output: ToolOutput };

/** The observePage tool's answer: the fenced observation, with the marks' legend or why the screenshot is missing. */
export async function observePageOutput(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  options: ObserveOptions,
  fence: PageFence,
): Promise<ToolOutput> {
  const observed = await observePage(context, page, call, options);
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
export async function observePage(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  options: ObserveOptions = {},
): Promise<ObservedPage> {
  const { platform } = context.dependencies;
  const { tabId } = page.tab;
  await platform.ensureAgent(tabId);
  const request: PageRequest = {
    type: 'page/observe',
    ...(options.scope && /^e\d+$/.test(options.scope) ? { scope: options.scope } : {}),
    ...(options.find ? { find: options.find } : {}),
  };
  const frames = await observeFrames(context, tabId, request);
  const top = frames.find((frame) => frame.frameId === 0);
  if (!top) return { ok: false, output: pageFailure('PAGE_UNAVAILABLE', 'The page did not answer.') };
  const stitched = frames.length > 1 ? stitchFrames(frames) : { snapshot: top.observation.snapshot, prefixes: {} };
  const data: PageObservationData = {
    ...top.observation,
    snapshot: stitched.snapshot,
    events: frames.flatMap((frame) => frame.observation.events).slice(-50),
  };
  const zoom = await platform.zoom(tabId).catch(() => 1);
  const taken = options.screenshot
    ? await pageScreenshot(context, page, call, data, options.marks === true)
    : undefined;
  const shot = taken && 'ref' in taken ? taken : undefined;
  const record = observationRecord(context.dependencies.newId(), page, frames, stitched.prefixes, zoom, shot);
  context.observations.add(record, call.sessionId);
  return {
    ok: true,
    record,
    data,
    ...(shot ? { screenshot: shot.ref } : {}),
    ...(shot?.marks ? { marks: shot.marks } : {}),
    ...(taken && 'unavailable' in taken ? { screenshotUnavailable: taken.unavailable } : {}),
  };
}

/** The observation an answer carries after an action: of the conversation's page now, or null when it failed. */
export async function freshObservation(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  fence: PageFence,
): Promise<JsonObject | null> {
  const current = (await context.choose(call.sessionId)) ?? page;
  const observed = await observePage(context, current.ok ? current : page, call).catch(() => undefined);
  return observed?.ok ? fencedObservation(observed.record, observed.data, undefined, fence) : null;
}

/** Every permitted frame's own observation; a frame the agent is not in (not permitted, gone) is left out. */
async function observeFrames(
  context: PageToolContext,
  tabId: number,
  request: PageRequest,
): Promise<FrameObservation[]> {
  const { platform } = context.dependencies;
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
