import { TargetArtifactLedger } from '../authored-targets/target-artifact-ledger';
import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { RestoredTargetValues, RewindMode } from '../protocol/rewind-events';
import type { NotUndone, RewindPreview } from '../protocol/rewind-preview';
import { pathTo } from '../state/branch-tree';
import { replayLog } from '../state/reduce-events';
import { toolNamed } from '../tools/tool-registry';
import { reportedValues } from '../targets/reported-values';
import type { ToolbarEdit, ToolbarEditHistory } from '../protocol/toolbar-edit';

export type RewindPlan = { ok: true; preview: RewindPreview; fromLeaf: string | null } | { ok: false; reason: string };

type Values = Map<string, JsonObject>;

function record(value: JsonValue | undefined): Record<string, JsonValue> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

function merge(into: Values, targetId: string, values: JsonObject): void {
  into.set(targetId, { ...into.get(targetId), ...values });
}

/** The values each event reports for its targets, and whether they are changes (a read is not). */
function valueReports(
  event: AgentEvent,
  names: Map<string, string>,
): { targetId: string; values: JsonObject; change: boolean }[] {
  if (event.type === 'rewind/applied') return event.data.values.map((entry) => ({ ...entry, change: true }));
  if (event.type !== 'tool/completed') return [];
  const output = record(event.data.output);
  const toolName = names.get(event.toolCallId) ?? '';
  const values = output && output.ok === true ? reportedValues(toolName, output) : undefined;
  if (!values || typeof output?.targetId !== 'string') return [];
  return [{ targetId: output.targetId, values, change: toolName !== 'getParameters' }];
}

function short(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function inputDetail(input: JsonValue | undefined): string {
  const fields = record(input);
  if (!fields) return '';
  const named = ['action', 'url', 'file', 'targetText', 'selector', 'name'].flatMap((key) =>
    typeof fields[key] === 'string' ? [`${key} ${fields[key]}`] : [],
  );
  return short(named.length > 0 ? named.join(', ') : JSON.stringify(fields));
}

function downloadNames(output: JsonValue | undefined): string[] {
  const downloads = record(output)?.downloads;
  if (!Array.isArray(downloads)) return [];
  return downloads.flatMap((download) => {
    const name = record(download)?.name;
    return typeof name === 'string' ? [short(name.replace(/^<<[^>]*>>\n|\n<<[^>]*>>$/g, ''))] : [];
  });
}

function effectKind(toolName: string): NotUndone['kind'] | undefined {
  if (toolName === 'runScript') return 'job';
  if (toolName === 'uploadFile') return 'upload';
  if (toolName.startsWith('mcp_')) return 'external-tool';
  const tool = toolNamed(toolName);
  if (tool?.runsOn === 'page' && tool.sideEffect === 'side-effecting') return 'page-action';
  return undefined;
}

/** The calls after the point that acted on the world: each sent call of a page, upload, MCP or job tool, and each download. */
function notUndone(
  after: readonly AgentEvent[],
  inputs: Map<string, { toolName: string; input: JsonValue }>,
): NotUndone[] {
  const listed: NotUndone[] = [];
  for (const event of after) {
    if (event.type === 'tool/started') {
      const call = inputs.get(event.toolCallId);
      const kind = call ? effectKind(call.toolName) : undefined;
      if (call && kind)
        listed.push({ kind, toolCallId: event.toolCallId, toolName: call.toolName, detail: inputDetail(call.input) });
    } else if (event.type === 'tool/completed' || event.type === 'tool/failed') {
      const toolName = inputs.get(event.toolCallId)?.toolName ?? '';
      for (const name of downloadNames(event.data.output))
        listed.push({ kind: 'download', toolCallId: event.toolCallId, toolName, detail: name });
    }
  }
  return listed;
}

/**
 * The values to put back and those not known, from the conversation's reports and the toolbar's changes: before
 * the point, folded in the order they happened (the toolbar's by time among the log's); after it, every parameter
 * either changed.
 */
function targetValues(
  point: AgentEvent,
  before: readonly AgentEvent[],
  after: readonly AgentEvent[],
  names: Map<string, string>,
  toolbar: ToolbarEditHistory,
) {
  const known: Values = new Map();
  const earlier = toolbar.edits.filter((edit) => edit.time < point.time);
  let next = 0;
  for (const event of before) {
    for (; next < earlier.length && earlier[next]!.time <= event.time; next++)
      merge(known, earlier[next]!.targetId, earlier[next]!.values);
    for (const report of valueReports(event, names)) merge(known, report.targetId, report.values);
  }
  for (const edit of earlier.slice(next)) merge(known, edit.targetId, edit.values);
  const changed = new Map<string, Set<string>>();
  const later = [
    ...after.flatMap((event) => valueReports(event, names).filter((report) => report.change)),
    ...toolbar.edits.filter((edit) => edit.time >= point.time),
  ];
  for (const report of later)
    for (const param of Object.keys(report.values))
      changed.set(report.targetId, (changed.get(report.targetId) ?? new Set()).add(param));
  const values: RestoredTargetValues[] = [];
  const unknownValues: RewindPreview['unknownValues'] = [];
  for (const [targetId, params] of changed) {
    const then = known.get(targetId) ?? {};
    const restored = Object.fromEntries(
      [...params].filter((param) => param in then).map((param) => [param, then[param]]),
    );
    const unknown = [...params].filter((param) => !(param in then));
    if (Object.keys(restored).length > 0) values.push({ targetId, values: restored });
    if (unknown.length > 0) unknownValues.push({ targetId, params: unknown });
  }
  const changesAfter = toolbar.edits.length - earlier.length;
  return {
    values,
    unknownValues,
    toolbar: { changesAfter, ...(toolbar.dropped && toolbar.edits[0] ? { keptSince: toolbar.edits[0].time } : {}) },
  };
}

function authoredVersions(before: readonly AgentEvent[], events: readonly AgentEvent[]) {
  const then = new TargetArtifactLedger();
  for (const event of before) then.observe(event);
  const now = new TargetArtifactLedger();
  for (const event of events) now.observe(event);
  const versions: RewindPreview['versions'] = [];
  const createdAfter: string[] = [];
  for (const record of now.all()) {
    const earlier = then.get(record.artifactId);
    const current = earlier?.current;
    const sameParts = (left: number | undefined, right: number | undefined) =>
      left !== undefined &&
      right !== undefined &&
      JSON.stringify(record.versions.get(left)?.parts) === JSON.stringify(earlier?.versions.get(right)?.parts);
    if (current === undefined) createdAfter.push(record.artifactId);
    // A restore of that version since is current already: its parts are the same, under a newer number.
    else if (record.current !== current && !sameParts(record.current, current))
      versions.push({ artifactId: record.artifactId, version: current, current: record.current ?? 0 });
  }
  return { versions, createdAfter };
}

/**
 * What a rewind to just before the message of `turnId` would do, from the log and the toolbar's changes: the point
 * is that message's `turn/started`; what any branch logged after it in time is after the point (the world saw it
 * happen), and so is what the toolbar changed from that time on.
 */
export function rewindPlan(
  events: readonly AgentEvent[],
  turnId: string,
  toolbar: ToolbarEditHistory = { edits: [], dropped: false },
): RewindPlan {
  const state = replayLog(events[0]?.sessionId ?? '', events);
  if (!(turnId in state.branches.parents)) return { ok: false, reason: `This conversation has no turn ${turnId}.` };
  if (Object.values(state.turns).some((turn) => turn.status === 'running' || turn.status === 'paused'))
    return { ok: false, reason: 'A reply is still running: stop or finish it before rewinding.' };
  const point = events.find((event) => event.type === 'turn/started' && event.turnId === turnId);
  if (!point) return { ok: false, reason: `This conversation has no turn ${turnId}.` };
  const before = events.filter((event) => event.seq < point.seq);
  const after = events.filter((event) => event.seq > point.seq);
  const inputs = new Map<string, { toolName: string; input: JsonValue }>();
  for (const event of events)
    if (event.type === 'tool/requested')
      inputs.set(event.toolCallId, { toolName: event.data.toolName, input: event.data.input });
  const names = new Map([...inputs].map(([callId, call]) => [callId, call.toolName]));
  const path = pathTo(state.branches, state.branches.leaf);
  const at = path.indexOf(turnId);
  return {
    ok: true,
    fromLeaf: state.branches.leaf,
    preview: {
      turnId,
      parentTurnId: state.branches.parents[turnId] ?? null,
      pointSeq: point.seq,
      laterTurns: at < 0 ? 0 : path.length - at,
      notUndone: notUndone(after, inputs),
      ...targetValues(point, before, after, names, toolbar),
      ...authoredVersions(before, events),
    },
  };
}

/**
 * The durable record of a rewind in `mode`, with what it restores: a replay of the log gives the same view.
 * `restoredAs` is the new version each authored target's version of then becomes (mode `versions`), made in the
 * same commit.
 */
export function rewindDraft(
  sessionId: string,
  plan: Extract<RewindPlan, { ok: true }>,
  rewind: { rewindId: string; mode: RewindMode; restoredAs: ReadonlyMap<string, number> },
  time: number,
): Extract<AgentEventDraft, { type: 'rewind/applied' }> {
  const { preview } = plan;
  const { rewindId, mode, restoredAs } = rewind;
  return {
    type: 'rewind/applied',
    sessionId,
    turnId: preview.turnId,
    time,
    data: {
      mode,
      rewindId,
      parentTurnId: preview.parentTurnId,
      fromLeaf: plan.fromLeaf,
      values: mode === 'conversation' ? [] : preview.values,
      versions:
        mode === 'versions'
          ? preview.versions.map(({ artifactId, version }) => {
              const as = restoredAs.get(artifactId);
              return { artifactId, version, ...(as !== undefined ? { restoredAs: as } : {}) };
            })
          : [],
    },
  };
}

/**
 * The part of a rewind's values that nothing after it changed (`after`: the log after the rewind; `toolbarAfter`:
 * the toolbar's changes since): what a rewind completed late, after a restart, still puts back. A later set,
 * reset, rewind or toolbar change of a parameter wins.
 */
export function valuesStillRestored(
  values: readonly RestoredTargetValues[],
  after: readonly AgentEvent[],
  toolbarAfter: readonly ToolbarEdit[] = [],
): RestoredTargetValues[] {
  const names = new Map<string, string>();
  for (const event of after) if (event.type === 'tool/requested') names.set(event.toolCallId, event.data.toolName);
  const changed = new Map<string, Set<string>>();
  const later = [
    ...after.flatMap((event) => valueReports(event, names).filter((report) => report.change)),
    ...toolbarAfter,
  ];
  for (const report of later)
    for (const param of Object.keys(report.values))
      changed.set(report.targetId, (changed.get(report.targetId) ?? new Set()).add(param));
  return values.flatMap(({ targetId, values: restored }) => {
    const later = changed.get(targetId);
    const kept = Object.fromEntries(Object.entries(restored).filter(([param]) => !later?.has(param)));
    return Object.keys(kept).length > 0 ? [{ targetId, values: kept }] : [];
  });
}
