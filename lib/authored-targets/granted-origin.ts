import type { TargetGrant } from '../protocol/target-artifact-events';

/** The origin of `url` when the user granted it network access, else undefined (also for a URL that does not parse). */
export function grantedOrigin(url: string, granted: readonly TargetGrant[], base?: string): string | undefined {
  let origin: string;
  try {
    origin = new URL(url, base).origin;
  } catch {
    return undefined;
  }
  return granted.some((grant) => grant.permission === 'network' && grant.origin === origin) ? origin : undefined;
}
