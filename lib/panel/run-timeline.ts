import type { AgentEvent, AgentEventOf } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { TokenUsage } from '../protocol/token-usage';
import { timelineTurns, type TimelineTurn } from './timeline-turns';

export const TIMELINE_KINDS = ['model-request', 'tool-call', 'approval', 'error', 'compaction'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** One row of the run timeline, read from the log alone: when it began, how long it took, what it was. */
export interface TimelineEntry {
  kind: TimelineKind;
  /** The id of what the row is about: a step attempt, a tool call, a request, an error's attempt, a compaction. */
  id: string;
  turnId?: string;
  time: number;
  durationMs?: number;
  title: string;
  /** Model requests: what the provider reported and when the first output came. */
  usage?: TokenUsage;
  firstOutputMs?: number;
  model?: string;
  /** Tool calls: the input, the outcome and its result or error; a retry's attempt number and the call it retries. */
  input?: JsonValue;
  status?: string;
  result?: JsonValue;
  error?: string;
  attempt?: number;
  retryOf?: string;
  /** Approvals: who decided and when. */
  decidedBy?: 'user' | 'runtime';
  decidedAt?: number;
}

/** A conversation's or a turn's timeline: its turns, the headings, and every row, each naming its turn. */
export interface RunTimeline {
  turns: TimelineTurn[];
  entries: TimelineEntry[];
}

/** The run timeline of a conversation, or of one turn, from its durable events (see `timelineEntries`). */
export function runTimeline(events: readonly AgentEvent[], turnId?: string): RunTimeline {
  return { turns: timelineTurns(events, turnId), entries: timelineEntries(events, turnId) };
}

/**
 * The rows of a conversation's timeline, or of one turn's: a pure projection of its durable events, in the order
 * each row began. Every figure is one the log records; a figure it does not have (a step without usage) stays absent.
 */
export function timelineEntries(events: readonly AgentEvent[], turnId?: string): TimelineEntry[] {
  const rows = new Map<string, TimelineEntry>();
  const put = (key: string, entry: TimelineEntry) => rows.set(key, { ...rows.get(key), ...entry });
  const change = (key: string, patch: Partial<TimelineEntry>) => {
    const row = rows.get(key);
    if (row) rows.set(key, { ...row, ...patch });
  };
  for (const event of events) {
    if (turnId !== undefined && turnOf(event) !== turnId) continue;
    projectEvent(event, { put, change, rows });
  }
  return [...rows.values()].sort((left, right) => left.time - right.time);
}

/** The turn an event belongs to; a compaction belongs to the turn it covers through. */
function turnOf(event: AgentEvent): string | undefined {
  if (event.type === 'context/compacted') return event.data.throughTurnId;
  return 'turnId' in event ? event.turnId : undefined;
}

interface Rows {
  put(key: string, entry: TimelineEntry): void;
  change(key: string, patch: Partial<TimelineEntry>): void;
  rows: Map<string, TimelineEntry>;
}

function projectEvent(event: AgentEvent, rows: Rows): void {
  switch (event.type) {
    case 'step/started':
      return rows.put(`step:${event.attemptId}`, {
        kind: 'model-request',
        id: event.attemptId,
        turnId: event.turnId,
        time: event.time,
        title: `Model request ${event.data.index + 1}`,
      });
    case 'step/completed':
      return stepCompleted(event, rows);
    case 'stream/error':
      rows.change(`step:${event.attemptId}`, { status: 'failed', error: event.data.message });
      return rows.put(`error:${event.attemptId}`, {
        kind: 'error',
        id: event.attemptId,
        turnId: event.turnId,
        time: event.time,
        title: `Model error (${event.data.code})`,
        error: event.data.message,
      });
    case 'tool/requested':
      return rows.put(`tool:${event.toolCallId}`, {
        kind: 'tool-call',
        id: event.toolCallId,
        turnId: event.turnId,
        time: event.time,
        title: event.data.toolName,
        input: event.data.input,
        status: 'requested',
      });
    case 'tool/retried':
      return rows.put(`tool:${event.attemptId}`, {
        kind: 'tool-call',
        id: event.attemptId,
        turnId: event.turnId,
        time: event.time,
        title: rows.rows.get(`tool:${event.toolCallId}`)?.title ?? 'tool',
        status: 'requested',
        attempt: event.data.attempt,
        retryOf: event.toolCallId,
      });
    case 'tool/completed':
    case 'tool/failed':
    case 'tool/unknown':
    case 'tool/denied':
      return rows.change(`tool:${event.toolCallId}`, toolOutcome(event));
    case 'approval/requested':
      return rows.put(`approval:${event.requestId}`, {
        kind: 'approval',
        id: event.requestId,
        turnId: event.turnId,
        time: event.time,
        title: event.data.summary,
        status: 'pending',
      });
    case 'approval/decided':
      return decided(rows, event.requestId, event.time, event.data.decision === 'allow' ? 'allowed' : 'denied', 'user');
    case 'approval/expired':
      return decided(rows, event.requestId, event.time, `expired (${event.data.cause ?? 'timeout'})`, 'runtime');
    case 'turn/interrupted':
      return rows.put(`interrupted:${event.turnId}`, {
        kind: 'error',
        id: event.turnId,
        turnId: event.turnId,
        time: event.time,
        title: 'Turn interrupted',
        error: event.data.reason,
      });
    case 'context/compacted':
      return rows.put(`compaction:${event.compactionId}`, {
        kind: 'compaction',
        id: event.compactionId,
        turnId: event.data.throughTurnId,
        time: event.time,
        title: `Compaction (${event.data.trigger}, ${event.data.method})`,
        result: { summaryTokens: event.data.summaryTokens, coveredTokens: event.data.coveredTokens },
      });
    default:
  }
}

function stepCompleted(event: AgentEventOf<'step/completed'>, rows: Rows): void {
  const key = `step:${event.attemptId}`;
  const started = rows.rows.get(key);
  rows.change(key, {
    status: event.data.finishReason,
    ...(started ? { durationMs: Math.max(0, event.time - started.time) } : {}),
    ...(event.data.usage ? { usage: event.data.usage } : {}),
    ...(event.data.firstOutputMs !== undefined ? { firstOutputMs: event.data.firstOutputMs } : {}),
    ...(event.data.model ? { model: event.data.model } : {}),
  });
}

function toolOutcome(
  event: AgentEventOf<'tool/completed' | 'tool/failed' | 'tool/unknown' | 'tool/denied'>,
): Partial<TimelineEntry> {
  switch (event.type) {
    case 'tool/completed':
      return { status: 'completed', result: event.data.output, durationMs: event.data.durationMs };
    case 'tool/failed':
      return {
        status: 'failed',
        result: event.data.output,
        error: event.data.error,
        durationMs: event.data.durationMs,
      };
    case 'tool/unknown':
      return { status: 'unknown', error: event.data.reason };
    default:
      return { status: 'denied', result: event.data.output, error: event.data.reason };
  }
}

function decided(rows: Rows, requestId: string, time: number, status: string, by: 'user' | 'runtime'): void {
  const row = rows.rows.get(`approval:${requestId}`);
  if (!row || row.status !== 'pending') return;
  rows.change(`approval:${requestId}`, { status, decidedBy: by, decidedAt: time, durationMs: time - row.time });
}

/** The rows of the kinds asked for (all of them when none is). */
export function filterTimeline(entries: readonly TimelineEntry[], kinds: ReadonlySet<TimelineKind>): TimelineEntry[] {
  return kinds.size === 0 ? [...entries] : entries.filter((entry) => kinds.has(entry.kind));
}

export const TIMELINE_EXPORT_FORMAT = 'splitbrain-timeline';

/** The turns that have a row among `entries`, for the headings of a filtered view. */
export function turnsWithRows(turns: readonly TimelineTurn[], entries: readonly TimelineEntry[]): TimelineTurn[] {
  const shown = new Set(entries.map((entry) => entry.turnId));
  return turns.filter((turn) => shown.has(turn.turnId));
}

/**
 * The timeline as the JSON document the panel's Export link downloads: the rows shown and their turns. Version 2
 * added `turns`.
 */
export function timelineExport(
  scope: { sessionId: string; turnId?: string },
  timeline: RunTimeline,
  exportedAt: Date,
): {
  format: typeof TIMELINE_EXPORT_FORMAT;
  version: 2;
  exportedAt: string;
  sessionId: string;
  turnId?: string;
  turns: TimelineTurn[];
  entries: TimelineEntry[];
} {
  return {
    format: TIMELINE_EXPORT_FORMAT,
    version: 2,
    exportedAt: exportedAt.toISOString(),
    sessionId: scope.sessionId,
    ...(scope.turnId ? { turnId: scope.turnId } : {}),
    turns: turnsWithRows(timeline.turns, timeline.entries),
    entries: [...timeline.entries],
  };
}
