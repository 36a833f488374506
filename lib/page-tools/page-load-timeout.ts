/** How long a navigation, or an action that unloads the page, waits for the next page to load. */
export const LOAD_TIMEOUT_MS = 10_000;
