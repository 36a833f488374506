import type { ObservationRecord } from './page-observation';
import type { OpenPage } from './page-tool-inputs';
import type { PageToolContext } from './page-tool-context';

/** The observation an action quotes, or why it may not quote it (retired, unknown, or of another tab). */
export async function quotedObservation(
  context: PageToolContext,
  observationId: string,
  page: OpenPage,
): Promise<{ ok: true; record: ObservationRecord } | { ok: false; reason: string }> {
  const record = context.observations.get(observationId);
  const stale = context.observations.retiredBecause(observationId) ?? (await staleReason(context, record, page));
  if (stale || !record) return { ok: false, reason: stale ?? 'Unknown observation.' };
  return { ok: true, record };
}

/** Why an action may not quote this observation: unknown, or of another tab than the conversation's current one. */
async function staleReason(
  context: PageToolContext,
  record: ObservationRecord | undefined,
  page: OpenPage,
): Promise<string | undefined> {
  if (!record) return 'That observation is not known (too old, or the extension restarted): use the fresh observation.';
  if (record.tabId === page.tab.tabId) return undefined;
  const current = page.tab.tabId;
  const open = await context.dependencies.platform.tab(record.tabId).catch(() => undefined);
  return open
    ? `That observation is of tab ${record.tabId}, not of this conversation's current tab ${current}: switchTab to it first, or use the fresh observation of tab ${current}.`
    : `That observation is of tab ${record.tabId}, which is closed: use the fresh observation of tab ${current}.`;
}
