/** The part of extension storage that settings and the target registry use; a test passes an in-memory one. */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  /** Calls `listener` whenever `key` changes, in this context or another one. */
  onChange(key: string, listener: () => void): void;
}
