import type { TargetGrant } from '../protocol/target-artifact-events';

/**
 * The `sandbox` and `allow` attributes of a target's frame: an authored target gets downloads and the clipboard only
 * once the user granted them, and never `allow-same-origin`.
 */
export function targetFramePermissions(granted: readonly TargetGrant[] | undefined): {
  sandbox: string;
  allow: string;
} {
  const grants = new Set(granted?.map((grant) => grant.permission));
  return {
    sandbox: grants.has('download') ? 'allow-scripts allow-downloads' : 'allow-scripts',
    allow: grants.has('clipboard') ? 'clipboard-write' : '',
  };
}
