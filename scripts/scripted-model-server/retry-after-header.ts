/** The `retry-after` header (whole seconds, rounded up) for a retry hint, or nothing without one. */
export function retryAfterHeader(retryDelaySeconds: number | undefined): Record<string, string> {
  return retryDelaySeconds === undefined ? {} : { 'retry-after': String(Math.ceil(retryDelaySeconds)) };
}
