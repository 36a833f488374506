import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { RestoredTargetValues } from '../protocol/rewind-events';
import type { ToolbarEditHistory } from '../protocol/toolbar-edit';
import type { SessionLock } from '../session-log/session-lock';
import type { RewindBook } from './rewind-book';
import { valuesStillRestored } from './rewind-plan';

/** Where a rewind's effects outside the log go: the stage the user sees, and the values saved per target. */
export interface RewindStage {
  /** Reloads a target of the conversation in the stage if it is the one shown there; whether it was. */
  reloadIfActive(sessionId: string, targetId: string): Promise<boolean>;
  /** Applies values to the target the stage shows and saves (writes, not only schedules) them for any other. */
  restoreTargetValues(restored: RestoredTargetValues[]): Promise<{ applied: string[]; saved: string[] }>;
}

export interface RewindEffectsAccess {
  lock: SessionLock;
  now(): number;
  /** Records drafts; the caller holds the session's lock. */
  commit(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  book(sessionId: string): Promise<RewindBook>;
  read(sessionId: string, afterSeq: number): Promise<AgentEvent[]>;
  /** The toolbar's changes: one made after the rewind is not undone by its late completion either. */
  toolbarEdits(): Promise<ToolbarEditHistory>;
  /** Without one (a runtime with no stage) no rewind is completed: they stay pending for one that has it. */
  stage?: RewindStage;
}

/**
 * Completes rewinds: a recorded `rewind/applied` whose effects outside the log are not recorded as done gets them
 * (each authored target it restored reloaded if shown, its values put on the stage or saved), then
 * `rewind/completed`. Run after the rewind's own commit, and again by a runtime that loads the session with one
 * pending (the worker stopped in between): the effects are idempotent (a reload shows the current version, the
 * values are the same values), and `rewind/completed` is written once, under the lock, only while the book still
 * has the rewind pending. A session's rewinds complete one at a time, oldest first, so a later one's values win.
 */
export class RewindEffects {
  private readonly running = new Map<string, Promise<void>>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly access: RewindEffectsAccess) {}

  /** Completes every rewind of the session still pending, oldest first. */
  async completePending(sessionId: string): Promise<void> {
    if (!this.access.stage) return;
    const pending = (await this.access.book(sessionId)).all();
    await Promise.all(pending.map((rewind) => this.complete(sessionId, rewind.rewindId)));
  }

  /** Completes one rewind if it is pending; a second call while it runs waits for the same run. */
  complete(sessionId: string, rewindId: string): Promise<void> {
    const stage = this.access.stage;
    if (!stage) return Promise.resolve();
    const key = `${sessionId}\n${rewindId}`;
    const known = this.running.get(key);
    if (known) return known;
    const before = this.queues.get(sessionId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.run(stage, sessionId, rewindId));
    this.running.set(key, run);
    this.queues.set(sessionId, run);
    const forget = () => {
      this.running.delete(key);
      if (this.queues.get(sessionId) === run) this.queues.delete(sessionId);
    };
    run.then(forget, forget);
    return run;
  }

  private async run(stage: RewindStage, sessionId: string, rewindId: string): Promise<void> {
    const pending = (await this.access.book(sessionId)).get(rewindId);
    if (!pending) return;
    const reloaded: string[] = [];
    for (const artifactId of pending.reload)
      if (await stage.reloadIfActive(sessionId, artifactId)) reloaded.push(artifactId);
    // Late (after a restart), a parameter set, rewound or changed from the toolbar since keeps its newer value.
    const toolbar = (await this.access.toolbarEdits()).edits.filter((edit) => edit.time > pending.time);
    const values = valuesStillRestored(pending.values, await this.access.read(sessionId, pending.seq), toolbar);
    const delivered = values.length > 0 ? await stage.restoreTargetValues(values) : { applied: [], saved: [] };
    await this.access.lock.run(sessionId, async () => {
      if (!(await this.access.book(sessionId)).get(rewindId)) return;
      await this.access.commit(sessionId, [
        { type: 'rewind/completed', sessionId, time: this.access.now(), data: { rewindId, reloaded, ...delivered } },
      ]);
    });
  }
}
