import type { JsonValue } from '../protocol/json-value';
import { pageToolResultSchema, type PageRequest } from '../protocol/page-wire';
import type { ToolOutput } from '../protocol/tool-output';
import { failedWithObservation } from './failed-with-observation';
import { freshObservation } from './observe-page';
import type { PageFence } from './page-fence';
import { fencedText } from './page-output';
import type { OpenPage, PageToolInput } from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';
import { quotedObservation } from './quoted-observation';

/** Calls one of the page's own tools (of the document a quoted observation saw); its result comes back fenced. */
export async function callPageTool(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  input: PageToolInput<'callPageTool'>,
  fence: PageFence,
): Promise<ToolOutput> {
  const failed = (code: string, reason: string) => failedWithObservation(context, code, reason, page, call, fence);
  const quoted = await quotedObservation(context, input.observationId, page);
  if (!quoted.ok) return failed('STALE_OBSERVATION', quoted.reason);
  const { record } = quoted;
  const request: PageRequest = {
    type: 'page/call-tool',
    documentId: record.documentId,
    name: input.name,
    arguments: (input.arguments ?? {}) as JsonValue,
  };
  const { platform } = context.dependencies;
  await platform.ensureAgent(record.tabId);
  const reply = pageToolResultSchema.safeParse(await platform.send(record.tabId, record.frameId, request));
  if (!reply.success) return failed('PAGE_UNAVAILABLE', 'The page did not answer.');
  if (!reply.data.ok) return failed(reply.data.code, reply.data.reason);
  return {
    ok: true,
    name: input.name,
    result: fencedText(reply.data.result, fence),
    observation: await freshObservation(context, page, call, fence),
  };
}
