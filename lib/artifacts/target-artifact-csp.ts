import type { TargetGrant } from '../protocol/target-artifact-events';

/**
 * The policy an authored target runs under, added by its host page on top of the sandbox's own (which already
 * allows no network at all): scripts only from the extension and the host's blob URL, no workers, frames, forms or
 * base. It names the origins the user granted; those are reached through the host's relayed fetch.
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
