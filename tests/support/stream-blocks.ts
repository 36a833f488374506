import type { AgentEventDraft } from '../../lib/protocol/agent-event';
import type { Random } from './random';

/** An assistant or reasoning item a generated step streams, delta by delta. */
export interface StreamItem {
  kind: 'assistant' | 'reasoning';
  itemId: string;
  deltas: string[];
  emitted: number;
}

/** A tool call whose arguments a generated step previews while streaming. */
export interface StreamTool {
  toolCallId: string;
  toolName: string;
  previews: string[];
  emitted: number;
}

export interface StepContext {
  turnId: string;
  stepId: string;
  attemptId: string;
  index: number;
}

/** Blocks in order (as providers send them), or, now and then, freely interleaved. */
export function streamParts(random: Random, items: StreamItem[], tools: StreamTool[]): (StreamItem | StreamTool)[] {
  const blocks: (StreamItem | StreamTool)[] = random.shuffle([...items, ...tools]);
  const parts: (StreamItem | StreamTool)[] = [];
  if (random.chance(0.7)) {
    for (const block of blocks)
      for (let count = 0; count < ('deltas' in block ? block.deltas.length : block.previews.length); count++)
        parts.push(block);
    return parts;
  }
  const remaining = new Map(
    blocks.map((block) => [block, 'deltas' in block ? block.deltas.length : block.previews.length]),
  );
  while ([...remaining.values()].some((count) => count > 0)) {
    const block = random.pick([...remaining].filter(([, count]) => count > 0).map(([candidate]) => candidate));
    remaining.set(block, (remaining.get(block) ?? 0) - 1);
    parts.push(block);
  }
  return parts;
}

export function streamDraft(
  sessionId: string,
  step: StepContext,
  block: StreamItem | StreamTool,
  time: number,
): AgentEventDraft {
  const { turnId, stepId, attemptId } = step;
  if ('deltas' in block) {
    const index = block.emitted++;
    const type = block.kind === 'assistant' ? 'assistant/delta' : 'reasoning/delta';
    return {
      type,
      sessionId,
      turnId,
      stepId,
      attemptId,
      itemId: block.itemId,
      time,
      data: { index, text: block.deltas[index] },
    };
  }
  const index = block.emitted++;
  return {
    type: 'tool/input-delta',
    sessionId,
    turnId,
    stepId,
    toolCallId: block.toolCallId,
    time,
    data: { toolName: block.toolName, index, delta: block.previews[index] },
  };
}
