import type { ToolOutput } from '../protocol/tool-output';
import { freshObservation } from './observe-page';
import { pageFailure } from './page-failure';
import type { PageFence } from './page-fence';
import type { OpenPage } from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';

/** A refused or failed page action, its reason fenced, with a fresh observation to go on from. */
export async function failedWithObservation(
  context: PageToolContext,
  code: string,
  reason: string,
  page: OpenPage,
  call: PageCallContext,
  fence: PageFence,
): Promise<ToolOutput> {
  return {
    ...pageFailure(code, fence.wrap(reason)),
    error: `${code}: ${reason}`.slice(0, 2000),
    observation: await freshObservation(context, page, call, fence),
  };
}
