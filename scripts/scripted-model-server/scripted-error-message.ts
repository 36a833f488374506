/** The message of a scripted error that names none. */
export function scriptedErrorMessage(status: number): string {
  return `Scripted error (HTTP ${status}).`;
}
