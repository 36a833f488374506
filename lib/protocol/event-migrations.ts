import { AGENT_EVENT_SCHEMA_VERSION, agentEventSchema, type AgentEvent } from './agent-event';
import { issueText } from './issue-text';

type RawEvent = Record<string, unknown>;

/**
 * Step N turns a stored event of schema version N into one of version N + 1. Pure (no clock, ids or I/O) and
 * total: it never refuses an event its version could hold. The runner stamps the new version afterwards.
 */
type MigrationStep = (event: RawEvent) => RawEvent;

/** One step for every version before AGENT_EVENT_SCHEMA_VERSION; a change of shape adds the next one. */
export const EVENT_MIGRATIONS: Readonly<Record<number, MigrationStep>> = {
  /**
   * Version 2 changes no event's shape. It marks rows written by code that has this table, so that an event
   * shape added later comes with a version an older build can tell it does not read.
   */
  1: (event) => event,
  /**
   * Version 3 adds the `notify/*` fact events and the turn-end reason `budget`, which a version-2 build cannot
   * read: the version tells it the rows are newer instead of broken. Every version-2 row is a valid version-3 row.
   */
  2: (event) => event,
  /**
   * Version 4 adds `context/compacted` (a summary that later requests send instead of the turns it covers), the
   * step's `promptEstimate`, `turn/paused`, `turn/resumed` and the command kinds `pause` and `resume`. Every
   * version-3 row is a valid version-4 row; a version-3 build reading a version-4 log is told it is newer rather
   * than dropping a summary or a pause it cannot read.
   */
  3: (event) => event,
  /**
   * Version 5 adds branches: `turn/started` may name its `parentTurnId` (or `answerOf`, a regeneration),
   * `branch/switched` changes the branch in view and `session/created` may name the conversation it was forked from. A version-4 row names no parent, which the reducer reads as
   * "after the turn active when it started": a version-4 log is then the one branch it always was, each turn
   * after the one before it. A version-4 build reading a version-5 log is told it is newer rather than showing
   * every branch as one conversation.
   */
  4: (event) => event,
  /**
   * Version 6 adds `rewind/applied` (the view went back to just before a message, with the target values and
   * authored versions it restored) and retries: `tool/retried` (a failed call run again as a new attempt) and
   * `turn/started`'s `retriesToolCall`. Every version-5 row is a valid version-6 row; a version-5 build reading a
   * version-6 log is told it is newer rather than showing a rewound conversation at its old leaf or a retry as an
   * empty message.
   */
  5: (event) => event,
  /**
   * Version 7 adds `turn/started`'s `retriesStep`: a turn without a message of its own that runs a failed model
   * request again. Every version-6 row is a valid version-7 row; a version-6 build reading a version-7 log is told
   * it is newer rather than showing a step retry as an empty message the model would be sent.
   */
  6: (event) => event,
  /**
   * Version 8 adds `mcp-app/context` (what an MCP App told the model) and `turn/started`'s `appContexts` (the
   * contexts a message carried); and `rewind/completed` (a rewind's effects outside the log are done),
   * `rewind/applied`'s `rewindId` and each restored version's `restoredAs`. A version-7 `rewind/applied` has no
   * `rewindId`, which reads as a rewind whose effects are not to be completed again (its build did them or lost
   * them, and nothing says which). Every version-7 row is a valid version-8 row; a version-7 build reading a
   * version-8 log is told it is newer rather than failing on a type it cannot read, sending the model a history
   * without what the apps told it, or refusing `rewind/completed`.
   */
  7: (event) => event,
  /**
   * Version 9 adds images that MCP Apps give: `mcp-app/context`'s `images` (sent to the model with the context) and
   * `approval/requested`'s `images` (an app's message the card shows, which carries them once allowed), BlobRefs
   * in the blob store. Every version-8 row is a valid version-9 row (neither field is there); a version-8 build
   * reading a version-9 log is told it is newer rather than dropping the images and sending the model a context
   * or showing a card without them.
   */
  8: (event) => event,
};

export type StoredEventReading =
  | { ok: true; event: AgentEvent; upgradedFrom?: number }
  /** `newer`: written by a later version of Splitbrain; such a row is kept as it is and reported, never rewritten. */
  | { ok: false; reason: string; newer: boolean };

/** Reads one stored event of any version this code knows: older ones are upgraded step by step, then validated. */
export function readStoredEvent(raw: unknown): StoredEventReading {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, reason: 'not an event object', newer: false };
  const version = (raw as RawEvent).schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return { ok: false, reason: `schemaVersion ${JSON.stringify(version)} is not a version`, newer: false };
  if (version > AGENT_EVENT_SCHEMA_VERSION)
    return {
      ok: false,
      reason: `it was written by a newer version of Splitbrain (event schema ${version}; this one reads up to ${AGENT_EVENT_SCHEMA_VERSION}). Update Splitbrain to open it`,
      newer: true,
    };
  let event = raw as RawEvent;
  for (let from = version; from < AGENT_EVENT_SCHEMA_VERSION; from++) {
    const step = EVENT_MIGRATIONS[from];
    if (!step) return { ok: false, reason: `no migration from event schema ${from}`, newer: false };
    event = { ...step(event), schemaVersion: from + 1 };
  }
  const parsed = agentEventSchema.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: issue ? issueText(issue, { root: 'event' }) : 'event: invalid', newer: false };
  }
  return version === AGENT_EVENT_SCHEMA_VERSION
    ? { ok: true, event: parsed.data }
    : { ok: true, event: parsed.data, upgradedFrom: version };
}
