export interface ErrorTextOptions {
  /** An Error with an empty message is named instead (a bare `DOMException` or Dexie error says what it is). */
  nameWhenEmpty?: boolean;
  /** A thrown value that is neither an Error nor a string is written as JSON rather than `[object Object]`. */
  json?: boolean;
}

/** The text of a thrown value: an Error's message, anything else as a string. */
export function errorText(error: unknown, options: ErrorTextOptions = {}): string {
  if (error instanceof Error) return options.nameWhenEmpty && !error.message ? error.name : error.message;
  if (options.json && typeof error !== 'string') {
    try {
      return JSON.stringify(error) ?? String(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
}
