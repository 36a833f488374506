export interface CoalescingWriterOptions<Value> {
  /** Writes several keys at once; the writer never runs two writes at the same time. */
  write(items: Record<string, Value>): Promise<void>;
  /** How long a value may wait to be written together with later ones. */
  delayMs: number;
  onError?(error: unknown): void;
}

/**
 * Keeps the latest value per key and writes what changed at most once per `delayMs`, so a burst of changes
 * costs one write. `latest` answers with a value that is not written yet; `flush` writes at once (call it
 * when the values must not wait, e.g. when the page that produces them goes away).
 */
export class CoalescingWriter<Value> {
  private readonly pending = new Map<string, Value>();
  private readonly unwritten = new Map<string, Value>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: CoalescingWriterOptions<Value>) {}

  set(key: string, value: Value): void {
    this.pending.set(key, value);
    this.unwritten.set(key, value);
    this.timer ??= setTimeout(() => void this.flush(), this.options.delayMs);
  }

  /** The value last set for `key` that may not be written yet; undefined once it is. */
  latest(key: string): Value | undefined {
    return this.unwritten.get(key);
  }

  /** Writes every pending value now; resolves when everything set before the call is written (or failed). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.writing;
    const items = Object.fromEntries(this.pending);
    this.pending.clear();
    this.writing = this.writing
      .then(() => this.options.write(items))
      .then(
        () => {
          for (const [key, value] of Object.entries(items))
            if (this.unwritten.get(key) === value) this.unwritten.delete(key);
        },
        (error: unknown) => this.options.onError?.(error),
      );
    return this.writing;
  }
}
