import type { JsonObject } from '../protocol/json-value';
import { pageActResultSchema, type PageUploadFile } from '../protocol/page-wire';
import type { ToolOutput } from '../protocol/tool-output';
import { actRequest, actTarget } from './act-request';
import { failedWithObservation } from './failed-with-observation';
import { freshObservation } from './observe-page';
import type { PageFence } from './page-fence';
import { LOAD_TIMEOUT_MS } from './page-load-timeout';
import type { OpenPage, PageToolInput } from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';
import { quotedObservation } from './quoted-observation';

/** One action on an element of a quoted observation (an upload too, with its file); the answer has a fresh observation. */
export async function actOnPage(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  input: PageToolInput<'actOnPage'>,
  fence: PageFence,
  file?: PageUploadFile,
): Promise<ToolOutput> {
  const failed = (code: string, reason: string) => failedWithObservation(context, code, reason, page, call, fence);
  const quoted = await quotedObservation(context, input.observationId, page);
  if (!quoted.ok) return failed('STALE_OBSERVATION', quoted.reason);
  const { record } = quoted;
  const { platform } = context.dependencies;
  const target = await actTarget(input, record, (tabId) => platform.zoom(tabId));
  if (!target.ok) return failed(target.code, target.reason);
  const request = actRequest(input, record, target);
  if (!request.ok) return { ok: false, code: 'INVALID_INPUT', error: request.reason };
  await platform.ensureAgent(record.tabId);
  const sent = file ? { ...request.request, action: 'upload', file } : request.request;
  const reply = pageActResultSchema.safeParse(await platform.send(record.tabId, target.frameId, sent));
  if (!reply.success) return failed('PAGE_UNAVAILABLE', 'The page did not answer.');
  const result = reply.data;
  if (result.ok && result.unloading) await platform.waitForLoad(record.tabId, LOAD_TIMEOUT_MS);
  const observation = await freshObservation(context, page, call, fence);
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

function fencedHit(
  hit: { ref: string; role: string; name: string; tag: string; box: JsonObject },
  fence: PageFence,
): JsonObject {
  return { ref: hit.ref, role: hit.role, name: fence.wrap(hit.name), tag: hit.tag, box: hit.box };
}
