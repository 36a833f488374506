import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import { pathTo } from '../state/branch-tree';
import { replayLog } from '../state/reduce-events';

export type ForkPlan = { ok: true; drafts: AgentEventDraft[]; blobIds: string[] } | { ok: false; reason: string };

/** The turn an event belongs to, for the events a fork copies. */
function turnOf(event: AgentEvent): string | undefined {
  if (event.type === 'upload/state') return event.data.turnId;
  if (event.type === 'context/compacted') return event.data.throughTurnId;
  return 'turnId' in event ? event.turnId : undefined;
}

/** Every `blobId` the value names, at any depth: the blobs a fork refers to. */
function collectBlobIds(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const each of value) collectBlobIds(each, into);
  else if (value && typeof value === 'object')
    for (const [key, each] of Object.entries(value)) {
      if (key === 'blobId' && typeof each === 'string') into.add(each);
      else collectBlobIds(each, into);
    }
}

function asDraft(event: AgentEvent, sessionId: string): AgentEventDraft {
  const { seq: _seq, durable: _durable, schemaVersion: _version, ...draft } = event;
  return { ...draft, sessionId } as AgentEventDraft;
}

/**
 * The log of a new conversation that starts with the branch up to `throughTurnId`: a `session/created` naming
 * where it came from, then that branch's events in log order with their ids kept, as one branch (no sibling,
 * no switch). Jobs are left behind: a process belongs to the conversation that started it; the steps' usage too,
 * since the fork spent nothing and the day's budget sums every conversation's steps. The blobs are
 * named, not copied: the caller adds the new conversation's references to them.
 */
export function forkDrafts(
  events: readonly AgentEvent[],
  throughTurnId: string,
  forkSessionId: string,
  time: number,
): ForkPlan {
  const sourceId = events[0]?.sessionId ?? '';
  const state = replayLog(sourceId, events);
  const path = pathTo(state.branches, throughTurnId);
  if (path.length === 0) return { ok: false, reason: `This conversation has no turn ${throughTurnId}.` };
  if (path.some((turnId) => ['running', 'paused'].includes(state.turns[turnId]?.status ?? '')))
    return { ok: false, reason: 'A turn up to there is still open: stop or finish it before forking.' };
  const onPath = new Set(path);
  const created: AgentEventDraft = {
    type: 'session/created',
    sessionId: forkSessionId,
    time,
    data: { title: state.title, forkOf: { sessionId: sourceId, turnId: throughTurnId } },
  };
  const copied: AgentEventDraft[] = [];
  // What MCP Apps told the model goes with the messages on the branch that carried it, so they read the same.
  const carried = new Set(path.flatMap((turnId) => state.turns[turnId]?.appContextIds ?? []));
  for (const event of events) {
    if (event.type === 'mcp-app/context') {
      if (carried.has(event.contextId)) copied.push(asDraft(event, forkSessionId));
      continue;
    }
    const turnId = turnOf(event);
    if (!event.durable || !turnId || !onPath.has(turnId)) continue;
    // Switches and rewinds moved the original's view; the fork is one branch, in view to its end.
    if (event.type === 'branch/switched' || event.type === 'rewind/applied' || event.type.startsWith('job')) continue;
    if (event.type === 'step/completed') {
      // The fork spent nothing: copied usage would count the same tokens again against the day's budget.
      const { usage: _usage, ...data } = event.data;
      copied.push(asDraft({ ...event, data }, forkSessionId));
      continue;
    }
    if (event.type !== 'turn/started') {
      copied.push(asDraft(event, forkSessionId));
      continue;
    }
    const { answerOf: _answerOf, retryOf, ...data } = event.data;
    const started = asDraft(
      {
        ...event,
        data: {
          ...data,
          parentTurnId: state.branches.parents[event.turnId] ?? null,
          ...(retryOf && onPath.has(retryOf) ? { retryOf } : {}),
        },
      },
      forkSessionId,
    );
    copied.push(started);
  }
  const blobIds = new Set<string>();
  collectBlobIds(copied, blobIds);
  return { ok: true, drafts: [created, ...copied], blobIds: [...blobIds] };
}
