import type { TargetArtifactControl } from '../authored-targets/target-artifact-control';
import { errorText } from '../protocol/error-text';
import type { AgentEvent, AgentEventDraft, AgentEventOf } from '../protocol/agent-event';
import type { RewindMode } from '../protocol/rewind-events';
import type { RewindPreview, RewindResult } from '../protocol/rewind-preview';
import type { ToolbarEditHistory } from '../protocol/toolbar-edit';
import type { SessionLogAccess } from '../session-log/session-feature';
import { REWIND_BOOK } from './rewind-book';
import { RewindEffects, type RewindStage } from './rewind-effects';
import { rewindDraft, rewindPlan } from './rewind-plan';

/** What rewinding needs beyond the log's lock and commit: the clock, the whole log, and the authored targets. */
export interface RewindOptions {
  now(): number;
  read(sessionId: string, afterSeq: number): Promise<AgentEvent[]>;
  restoreDrafts: TargetArtifactControl['restoreDrafts'];
  /** The toolbar's changes of target values, which a rewind counts as the conversation's own; none without it. */
  toolbarEdits?(): Promise<ToolbarEditHistory>;
  /** Where a rewind's effects outside the log go; without one, rewinds stay pending (see RewindEffects). */
  stage?: RewindStage;
}

type RecordedRewind = AgentEventOf<'rewind/applied'>['data'];

/** Rewinds on a session log, with the hook that completes a rewind a stopped worker left pending. */
export function attachRewinds(log: SessionLogAccess, options: RewindOptions): SessionRewinds {
  const rewinds = new SessionRewinds(log, options);
  // A session loaded with a rewind whose effects were cut off (the worker stopped) gets them now, once.
  log.register({
    loaded: (sessionId, states) => {
      if (states.of(REWIND_BOOK).all().length > 0) void rewinds.completePending(sessionId).catch(() => undefined);
    },
  });
  return rewinds;
}

/** A conversation taken back to just before one of its messages: the preview, the rewind, and its completion. */
export class SessionRewinds {
  private readonly effects: RewindEffects;

  constructor(
    private readonly log: SessionLogAccess,
    private readonly options: RewindOptions,
  ) {
    this.effects = new RewindEffects({
      lock: log.lock,
      now: options.now,
      commit: (sessionId, drafts) => log.commit(sessionId, drafts),
      book: (sessionId) => log.state(sessionId, REWIND_BOOK),
      read: (sessionId, afterSeq) => options.read(sessionId, afterSeq),
      toolbarEdits: () => this.toolbarEdits(),
      ...(options.stage ? { stage: options.stage } : {}),
    });
  }

  /** Completes every rewind of the session still pending (its effects failed earlier, or a worker stopped). */
  completePending(sessionId: string): Promise<void> {
    return this.effects.completePending(sessionId);
  }

  /** What a rewind to just before `turnId`'s message would restore and what it would not undo, from the log. */
  preview(sessionId: string, turnId: string): Promise<RewindPreview> {
    return this.log.lock.run(sessionId, async () => {
      const plan = rewindPlan(await this.options.read(sessionId, 0), turnId, await this.toolbarEdits());
      if (!plan.ok) throw new Error(plan.reason);
      return plan.preview;
    });
  }

  /**
   * Rewinds to just before `turnId`'s message: under the lock, `rewind/applied` (the view's new end, with the values
   * it restores) and, in mode `versions`, each authored target's version of then made current as a new version, in
   * one commit; then its effects outside the log (RewindEffects) and `rewind/completed`. `rewindId` is the
   * request's: the same request again (the panel resends it when the worker stopped under it) is the same rewind,
   * answered from the log and completed if it is not yet. When the stage fails, the rewind stands and says so in
   * `unfinished`; its effects are tried again when the conversation is opened.
   */
  async rewind(sessionId: string, turnId: string, mode: RewindMode, rewindId: string): Promise<RewindResult> {
    const recorded = await this.log.lock.run(sessionId, () => this.record(sessionId, turnId, mode, rewindId));
    const result = rewindResult(recorded);
    try {
      await this.effects.complete(sessionId, rewindId);
      return result;
    } catch (error) {
      return { ...result, unfinished: errorText(error) };
    }
  }

  /** The rewind's one commit, or the one the log already holds for `rewindId`; the caller holds the lock. */
  private async record(sessionId: string, turnId: string, mode: RewindMode, rewindId: string): Promise<RecordedRewind> {
    const events = await this.options.read(sessionId, 0);
    const earlier = events.find(
      (event): event is AgentEventOf<'rewind/applied'> =>
        event.type === 'rewind/applied' && event.data.rewindId === rewindId,
    );
    if (earlier) return earlier.data;
    const plan = rewindPlan(events, turnId, await this.toolbarEdits());
    if (!plan.ok) throw new Error(plan.reason);
    const restores: AgentEventDraft[] = [];
    const restoredAs = new Map<string, number>();
    if (mode === 'versions')
      for (const { artifactId, version } of plan.preview.versions) {
        const restore = await this.options.restoreDrafts(sessionId, artifactId, version);
        restores.push(...restore.drafts);
        restoredAs.set(artifactId, restore.version);
      }
    const draft = rewindDraft(sessionId, plan, { rewindId, mode, restoredAs }, this.options.now());
    await this.log.commit(sessionId, [draft, ...restores]);
    return draft.data;
  }

  private toolbarEdits(): Promise<ToolbarEditHistory> {
    return this.options.toolbarEdits?.() ?? Promise.resolve({ edits: [], dropped: false });
  }
}

function rewindResult(recorded: RecordedRewind): RewindResult {
  return {
    values: recorded.values,
    versions: recorded.versions.map(({ artifactId, version, restoredAs }) => ({
      artifactId,
      restoredFrom: version,
      version: restoredAs ?? version,
    })),
  };
}
