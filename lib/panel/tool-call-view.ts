import type { JsonValue } from '../protocol/json-value';
import type { ToolCallState, ToolCallStatus } from '../state/client-state';

export const TOOL_STATUS_LABEL: Record<ToolCallStatus, string> = {
  streaming: 'Preparing',
  requested: 'Waiting',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  unknown: 'Outcome unknown',
  denied: 'Denied',
};

export function isToolCallFinished(status: ToolCallStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'unknown' || status === 'denied';
}

function field(value: JsonValue | undefined, name: string): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const found = value[name];
  return typeof found === 'string' && found ? found : undefined;
}

/** The target a call acted on, as its result or its arguments name it (the active target otherwise). */
export function toolCallTarget(
  call: Pick<ToolCallState, 'input' | 'output'> & { targetId?: string },
): string | undefined {
  return call.targetId ?? field(call.output, 'targetId') ?? field(call.input, 'targetId');
}

export function prettyJson(value: JsonValue | undefined): string {
  return value === undefined ? '' : (JSON.stringify(value, null, 2) ?? '');
}

/** Arguments as pretty JSON once known; while they stream, the raw preview (possibly cut mid-token). */
export function toolArgumentsText(call: Pick<ToolCallState, 'input' | 'argumentsPreview'>): string {
  if (call.input !== undefined) return prettyJson(call.input);
  return call.argumentsPreview;
}

/** A one-line preview of arguments for the collapsed card: `speed: 12, show_vectors: true`. */
export function toolArgumentsSummary(call: Pick<ToolCallState, 'input' | 'argumentsPreview'>, maxLength = 80): string {
  const { input } = call;
  let summary: string;
  if (input === undefined) summary = call.argumentsPreview;
  else if (input && typeof input === 'object' && !Array.isArray(input)) {
    summary = Object.entries(input)
      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
      .join(', ');
  } else summary = JSON.stringify(input);
  const flat = summary.replace(/\s+/g, ' ').trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

/** The failure a card shows: the runtime's error, else the `error` field of the tool's own result. */
export function toolCallError(call: Pick<ToolCallState, 'status' | 'error' | 'output'>): string | undefined {
  if (call.status !== 'failed' && call.status !== 'unknown' && call.status !== 'denied') return undefined;
  return call.error ?? field(call.output, 'error');
}

/** Values a target did not take as asked (clamped into their range), as `tempo 999 → 240`; undefined when all were. */
export function toolCallAdjustments(output: JsonValue | undefined): string | undefined {
  if (!output || typeof output !== 'object' || Array.isArray(output) || !Array.isArray(output.clamped))
    return undefined;
  const lines = output.clamped.flatMap((change) => {
    if (!change || typeof change !== 'object' || Array.isArray(change) || typeof change.param !== 'string') return [];
    return [`${change.param} ${JSON.stringify(change.requested)} → ${JSON.stringify(change.applied)}`];
  });
  return lines.length > 0 ? `Clamped to range: ${lines.join(', ')}` : undefined;
}

/** What the target reported on its own since the previous call (`targetErrors` of a result); undefined when nothing. */
export function toolCallTargetErrors(output: JsonValue | undefined): string | undefined {
  if (!output || typeof output !== 'object' || Array.isArray(output) || !Array.isArray(output.targetErrors))
    return undefined;
  const errors = output.targetErrors.filter((error): error is string => typeof error === 'string' && error !== '');
  return errors.length > 0 ? `The target reported: ${errors.join('; ')}` : undefined;
}

export function formatDuration(milliseconds: number | undefined): string | undefined {
  if (milliseconds === undefined || !Number.isFinite(milliseconds)) return undefined;
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(milliseconds < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(milliseconds / 60_000)} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}
