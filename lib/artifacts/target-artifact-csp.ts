import type { TargetGrant } from '../protocol/target-artifact-events';

/**
 * The policy an authored target runs under, added by its host page on top of the sandbox's own: no network but the
 * origins the user granted, scripts only from the extension and the host's blob URLs, no frames, forms or base.
 */
export function targetArtifactCsp(granted: readonly TargetGrant[]): string {
  const origins = [
    ...new Set(granted.flatMap((grant) => (grant.permission === 'network' && grant.origin ? [grant.origin] : []))),
  ];
  return [
    "default-src 'none'",
    "script-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${origins.length > 0 ? origins.join(' ') : "'none'"}`,
    "worker-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** What every hand-written target page gets, now that the sandbox's own policy leaves the network to each page. */
export const HAND_WRITTEN_TARGET_CSP = "connect-src 'none'";
