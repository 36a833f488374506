import { useEffect, useMemo, useState } from 'react';
import {
  filterTimeline,
  TIMELINE_KINDS,
  timelineExport,
  turnsWithRows,
  type RunTimeline,
  type TimelineEntry,
  type TimelineKind,
} from '@/lib/panel/run-timeline';
import type { TimelineTurn } from '@/lib/panel/timeline-turns';
import { formatDuration, prettyJson } from '@/lib/panel/tool-call-view';
import { errorText } from '@/lib/protocol/error-text';
import { CrossIcon, DownloadIcon, Spinner } from '../shared/icons';
import { usePanelActions } from '../shared/panel-actions';

const KIND_LABEL: Record<TimelineKind, string> = {
  'model-request': 'Model requests',
  'tool-call': 'Tool calls',
  approval: 'Approvals',
  error: 'Errors',
  compaction: 'Compactions',
};

/** The run timeline of the conversation or one turn, read from the log: filter by kind, export as JSON. */
export function RunTimelineView({
  sessionId,
  turnId,
  onClose,
}: {
  sessionId: string;
  turnId?: string;
  onClose(): void;
}) {
  const { loadTimeline } = usePanelActions();
  const [timeline, setTimeline] = useState<RunTimeline>();
  const [failure, setFailure] = useState<string>();
  const [kinds, setKinds] = useState<ReadonlySet<TimelineKind>>(new Set());
  useEffect(() => {
    let current = true;
    loadTimeline(turnId).then(
      (loaded) => current && setTimeline(loaded),
      (reason: unknown) => current && setFailure(errorText(reason)),
    );
    return () => {
      current = false;
    };
  }, [loadTimeline, turnId]);
  const entries = timeline?.entries;
  const shown = useMemo(() => filterTimeline(entries ?? [], kinds), [entries, kinds]);
  const turns = useMemo(() => turnsWithRows(timeline?.turns ?? [], shown), [timeline, shown]);
  const exportUrl = useMemo(() => {
    if (!timeline) return undefined;
    const document = timelineExport(
      { sessionId, ...(turnId ? { turnId } : {}) },
      { turns: timeline.turns, entries: shown },
      new Date(),
    );
    return URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
  }, [timeline, shown, sessionId, turnId]);
  useEffect(
    () => () => {
      if (exportUrl) URL.revokeObjectURL(exportUrl);
    },
    [exportUrl],
  );
  const toggle = (kind: TimelineKind) =>
    setKinds((previous) => {
      const next = new Set(previous);
      if (next.has(kind)) next.delete(kind);
      else next.add(kind);
      return next;
    });
  const start = Math.min(timeline?.turns[0]?.time ?? Infinity, entries?.[0]?.time ?? Infinity);
  return (
    <section
      className="run-timeline"
      role="dialog"
      aria-label={turnId ? 'Timeline of this turn' : 'Conversation timeline'}
    >
      <header className="run-timeline-head">
        <h2>{turnId ? 'Turn timeline' : 'Conversation timeline'}</h2>
        {exportUrl && (
          <a
            className="button-secondary run-timeline-export"
            href={exportUrl}
            download={`splitbrain-timeline-${turnId ?? sessionId}.json`}
          >
            <DownloadIcon /> Export JSON
          </a>
        )}
        <button type="button" className="icon-button" aria-label="Close the timeline" onClick={onClose}>
          <CrossIcon />
        </button>
      </header>
      <div className="run-timeline-filters" role="group" aria-label="Show only">
        {TIMELINE_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            className="timeline-filter"
            aria-pressed={kinds.has(kind)}
            data-kind={kind}
            onClick={() => toggle(kind)}
          >
            {KIND_LABEL[kind]}
          </button>
        ))}
      </div>
      {failure && <p className="tool-error">The log could not be read: {failure}</p>}
      {!entries && !failure && <Spinner />}
      {turns.map((turn) => (
        <section key={turn.turnId} className="timeline-turn" data-turn-id={turn.turnId} data-start={turn.start}>
          <TimelineTurnHeading turn={turn} start={start} />
          <ol className="run-timeline-rows">
            {shown
              .filter((entry) => entry.turnId === turn.turnId)
              .map((entry) => (
                <TimelineRow key={`${entry.kind}:${entry.id}`} entry={entry} start={start} />
              ))}
          </ol>
        </section>
      ))}
      {entries && shown.length === 0 && <p className="run-timeline-empty">Nothing of these kinds.</p>}
    </section>
  );
}

function TimelineTurnHeading({ turn, start }: { turn: TimelineTurn; start: number }) {
  const duration = formatDuration(turn.durationMs);
  const figures = [
    `+${formatDuration(turn.time - start) ?? '0 ms'}`,
    duration && `took ${duration}`,
    `${turn.requests} ${turn.requests === 1 ? 'request' : 'requests'}`,
    turn.toolCalls > 0 && `${turn.toolCalls} tool ${turn.toolCalls === 1 ? 'call' : 'calls'}`,
    turn.inputTokens !== undefined && `${turn.inputTokens} in`,
    turn.outputTokens !== undefined && `${turn.outputTokens} out`,
  ].filter(Boolean);
  return (
    <header className="timeline-turn-head" data-status={turn.status}>
      <div className="timeline-row-head">
        <span className="timeline-kind">Turn {turn.number}</span>
        <strong className="timeline-title">{turn.title}</strong>
        <span className="timeline-status">{turn.status}</span>
      </div>
      <div className="timeline-figures">{figures.join(' · ')}</div>
    </header>
  );
}

function TimelineRow({ entry, start }: { entry: TimelineEntry; start: number }) {
  const duration = formatDuration(entry.durationMs);
  const figures = [
    `+${formatDuration(entry.time - start) ?? '0 ms'}`,
    duration && `took ${duration}`,
    entry.firstOutputMs !== undefined && `first output ${formatDuration(entry.firstOutputMs)}`,
    entry.usage?.inputTokens !== undefined && `${entry.usage.inputTokens} in`,
    entry.usage?.outputTokens !== undefined && `${entry.usage.outputTokens} out`,
    entry.attempt && `attempt ${entry.attempt}`,
    entry.decidedBy && `decided by ${entry.decidedBy === 'user' ? 'you' : 'the runtime'}`,
  ].filter(Boolean);
  return (
    <li className="timeline-row" data-kind={entry.kind} data-status={entry.status}>
      <div className="timeline-row-head">
        <span className="timeline-kind">{KIND_LABEL[entry.kind]}</span>
        <strong className="timeline-title">{entry.title}</strong>
        {entry.status && <span className="timeline-status">{entry.status}</span>}
      </div>
      <div className="timeline-figures">{figures.join(' · ')}</div>
      {entry.error && <p className="tool-error">{entry.error}</p>}
      {(entry.input !== undefined || entry.result !== undefined) && (
        <details>
          <summary>Input and result</summary>
          {entry.input !== undefined && <pre>{prettyJson(entry.input)}</pre>}
          {entry.result !== undefined && <pre>{prettyJson(entry.result)}</pre>}
        </details>
      )}
    </li>
  );
}
