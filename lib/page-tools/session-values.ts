/**
 * Values kept for the browser session: a service-worker restart keeps them, closing the browser clears them (as
 * tab ids are only valid within one browser session). A test passes an in-memory one.
 */
export interface SessionValues {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

/** Session values in a map, for tests and for platforms without a session storage area. */
export function memorySessionValues(values = new Map<string, unknown>()): SessionValues {
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
    remove: async (key) => {
      values.delete(key);
    },
  };
}
