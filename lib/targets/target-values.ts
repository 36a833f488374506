import { jsonObjectSchema, type JsonObject } from '../protocol/json-value';
import { CoalescingWriter } from '../storage/coalescing-writer';

export interface TargetValuesOptions {
  read(key: string): Promise<unknown>;
  write(items: Record<string, JsonObject>): Promise<void>;
  /** Values are written at most this often; a burst of changes (a dragged slider) is one write. */
  delayMs: number;
  onError(error: unknown): void;
}

export const targetValuesKey = (targetId: string) => `targetValues:${targetId}`;

/** The parameter values each target last reported, kept in storage so a reopened target gets them back. */
export class TargetValues {
  private readonly writer: CoalescingWriter<JsonObject>;

  constructor(private readonly options: TargetValuesOptions) {
    this.writer = new CoalescingWriter({ write: options.write, delayMs: options.delayMs, onError: options.onError });
  }

  async saved(targetId: string): Promise<JsonObject | undefined> {
    const unwritten = this.writer.latest(targetValuesKey(targetId));
    if (unwritten) return unwritten;
    const parsed = jsonObjectSchema.safeParse(await this.options.read(targetValuesKey(targetId)));
    return parsed.success ? parsed.data : undefined;
  }

  remember(targetId: string, state: JsonObject): void {
    // A target that was just opened reports no values yet; that must not overwrite the saved ones.
    if (Object.keys(state).length > 0) this.writer.set(targetValuesKey(targetId), state);
  }

  /** Writes what is pending now, for a stage or worker that is going away. */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
