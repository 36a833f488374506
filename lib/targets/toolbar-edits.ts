import { toolbarEditHistorySchema, type ToolbarEditHistory } from '../protocol/toolbar-edit';
import type { JsonObject } from '../protocol/json-value';
import type { KeyValueStore } from '../storage/key-value-store';

export const TOOLBAR_EDITS_KEY = 'toolbarEdits';
/** How many of the toolbar's changes are kept, the newest: enough for the rewinds of a working session. */
export const MAX_TOOLBAR_EDITS = 200;

export interface ToolbarEditsOptions {
  storage: Pick<KeyValueStore, 'get' | 'set'>;
  now(): number;
}

/**
 * The toolbar popup's changes of target values, with their times, so that a rewind counts them as it counts the
 * conversation's own: the toolbar runs the model's tools, but in no conversation, so its results are in no log.
 * Kept in extension storage like the saved values; each change is written before the toolbar is answered.
 */
export class ToolbarEdits {
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ToolbarEditsOptions) {}

  async load(): Promise<ToolbarEditHistory> {
    const parsed = toolbarEditHistorySchema.safeParse(await this.options.storage.get(TOOLBAR_EDITS_KEY));
    return parsed.success ? parsed.data : { edits: [], dropped: false };
  }

  /** Records that the toolbar applied `values` to `targetId` now; one write at a time, so none is lost. */
  record(targetId: string, values: JsonObject): Promise<void> {
    const write = this.writing.then(async () => {
      const { edits, dropped } = await this.load();
      const kept = [...edits, { time: this.options.now(), targetId, values }];
      const over = Math.max(0, kept.length - MAX_TOOLBAR_EDITS);
      await this.options.storage.set(TOOLBAR_EDITS_KEY, { edits: kept.slice(over), dropped: dropped || over > 0 });
    });
    this.writing = write.catch(() => undefined);
    return write;
  }
}
