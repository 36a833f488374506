import type { AgentEventOf } from '../protocol/agent-event';
import type { EventAppliers } from './event-appliers';
import type { WorkingCopy } from './working-copy';

/** A compaction recorded twice (a worker restarted while its append was acknowledged) is one compaction. */
function applyCompaction(copy: WorkingCopy, event: AgentEventOf<'context/compacted'>): void {
  const known = copy.state.compactions ?? [];
  if (known.some((compaction) => compaction.compactionId === event.compactionId)) return;
  const { fallbackReason, throughStepId, ...data } = event.data;
  copy.state.compactions = [
    ...known,
    {
      compactionId: event.compactionId,
      seq: event.seq,
      time: event.time,
      fromSeq: (known.at(-1)?.seq ?? 0) + 1,
      toSeq: event.seq - 1,
      ...data,
      ...(throughStepId ? { throughStepId } : {}),
      ...(fallbackReason ? { fallbackReason } : {}),
    },
  ];
}

/** The summaries that replace the history before them, each covering the log since the previous one. */
export const COMPACTION_APPLIERS: EventAppliers<'context/compacted'> = { 'context/compacted': applyCompaction };
