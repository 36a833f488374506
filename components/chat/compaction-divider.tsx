import type { CompactionView } from '@/lib/state/client-state';

const methodText: Record<CompactionView['method'], string> = {
  model: 'summarised by the model',
  digest: 'digested without the model',
};

/**
 * Where earlier turns stop being sent in full: later requests send the summary instead. Opening it shows the
 * summary; the turns above are kept as they were.
 */
export function CompactionDivider({ compaction }: { compaction: CompactionView }) {
  const tokens = `${compaction.coveredTokens.toLocaleString('en-US')} → ${compaction.summaryTokens.toLocaleString('en-US')} tokens`;
  return (
    <details
      className="compaction-divider"
      data-method={compaction.method}
      data-trigger={compaction.trigger}
      data-compaction-id={compaction.compactionId}
    >
      <summary>
        Earlier conversation {methodText[compaction.method]} ({tokens}
        {compaction.trigger === 'user' ? ', on request' : ''})
      </summary>
      {compaction.fallbackReason && <p className="compaction-reason">{compaction.fallbackReason}</p>}
      <p className="compaction-range">
        From the log’s events {compaction.fromSeq}–{compaction.toSeq}; the model now gets this instead of what is above:
      </p>
      <pre className="compaction-summary">{compaction.summary}</pre>
    </details>
  );
}
