import type { ClientState } from '../../lib/state/client-state';

/**
 * The part of a client state that must not depend on how events were delivered. Left out: `generation`
 * (the connection count), `pending`/`gap` (checked separately), and the bookkeeping of transient streams
 * once they are over: an ended item's `deltaCount` and a requested tool call's `argumentsPreview` and
 * `previewCount` count the deltas this client happened to receive, and the final event replaced them.
 */
export function meaningfulState(state: ClientState): unknown {
  const items = Object.fromEntries(
    Object.entries(state.items).map(([key, item]) => {
      const { deltaCount: _deltaCount, ...rest } = item;
      return [key, rest];
    }),
  );
  const toolCalls = Object.fromEntries(
    Object.entries(state.toolCalls).map(([key, call]) => {
      if (call.status === 'streaming') return [key, call];
      const { argumentsPreview: _preview, previewCount: _count, ...rest } = call;
      return [key, rest];
    }),
  );
  const {
    title,
    lastSeq,
    turnOrder,
    turns,
    branches,
    streaming,
    requests,
    commands,
    notifications,
    facts,
    usage,
    usageByModel,
    compactions,
    calibration,
  } = state;
  // A JSON round trip so that a property set to undefined equals a missing one.
  return JSON.parse(
    JSON.stringify({
      title,
      lastSeq,
      turnOrder,
      turns,
      branches,
      items,
      streaming,
      toolCalls,
      requests,
      commands,
      notifications,
      facts,
      usage,
      usageByModel,
      compactions,
      calibration,
    }),
  );
}

/** The first path at which two JSON values differ, with both values, or undefined when they are equal. */
export function firstDifference(left: unknown, right: unknown, path = '$'): string | undefined {
  if (Object.is(left, right)) return undefined;
  if (
    typeof left !== 'object' ||
    typeof right !== 'object' ||
    left === null ||
    right === null ||
    Array.isArray(left) !== Array.isArray(right)
  ) {
    return `${path}: ${JSON.stringify(left)} ≠ ${JSON.stringify(right)}`;
  }
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    const difference = firstDifference(
      (left as Record<string, unknown>)[key],
      (right as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (difference) return difference;
  }
  return undefined;
}
