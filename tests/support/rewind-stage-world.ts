import type { JsonObject } from '../../lib/protocol/json-value';
import type { RewindStage } from '../../lib/runtime/rewind-effects';
import type { Runtime } from '../../lib/runtime/runtime';

/** What the stage tab shows: a target, at a version for an authored one, with the values in its frame. */
export interface ShownTarget {
  targetId: string;
  version?: number;
  values: JsonObject;
}

/**
 * The stage tab and the saved values as a worker restart leaves them: both outlive the runtime. A runtime's view
 * of it (`stageFor`) behaves as compose-runtime's: a reload opens the current version with the saved values, an
 * apply changes the frame and schedules its values to be saved, and saved values reach storage only at a flush.
 * `step` is called before and after each thing the runtime does to it, so a test can stop the runtime there.
 */
export class RewindStageWorld {
  shown: ShownTarget | undefined;
  /** Storage: what a target gets back when it is opened. */
  readonly saved = new Map<string, JsonObject>();
  /** How often each target was opened again and how often values were applied to the shown one. */
  reloads = 0;
  applies = 0;

  constructor(shown?: ShownTarget, saved: [string, JsonObject][] = []) {
    this.shown = shown && structuredClone(shown);
    for (const [targetId, values] of saved) this.saved.set(targetId, { ...values });
  }

  /** The runtime's end of this stage. `step` may throw (the worker stopped): nothing after it happens. */
  stageFor(runtime: () => Runtime, sessionId: string, step: () => void = () => undefined): RewindStage {
    // The values the runtime holds before its timer writes them: lost with the runtime.
    const unwritten = new Map<string, JsonObject>();
    return {
      reloadIfActive: async (_sessionId, targetId) => {
        if (this.shown?.targetId !== targetId) return false;
        step();
        const { version } = await runtime().targetArtifacts.load(sessionId, targetId);
        this.shown = { targetId, version, values: { ...(unwritten.get(targetId) ?? this.saved.get(targetId)) } };
        this.reloads += 1;
        step();
        return true;
      },
      restoreTargetValues: async (restored) => {
        const applied: string[] = [];
        const saved: string[] = [];
        for (const { targetId, values } of restored) {
          step();
          if (this.shown?.targetId === targetId) {
            this.shown.values = { ...this.shown.values, ...values };
            unwritten.set(targetId, { ...this.shown.values });
            this.applies += 1;
            applied.push(targetId);
          } else {
            unwritten.set(targetId, { ...(unwritten.get(targetId) ?? this.saved.get(targetId)), ...values });
            saved.push(targetId);
          }
          step();
        }
        step();
        for (const [targetId, values] of unwritten) this.saved.set(targetId, values);
        unwritten.clear();
        step();
        return { applied, saved };
      },
    };
  }

  /** What a comparison of two worlds looks at. */
  view(): { shown: ShownTarget | undefined; saved: Record<string, JsonObject> } {
    return { shown: structuredClone(this.shown), saved: Object.fromEntries([...this.saved].sort()) };
  }
}
