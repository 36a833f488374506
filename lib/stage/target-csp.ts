import type { TargetGrant } from '../protocol/target-artifact-events';

/** What every target page may load: its own files, and blob: for the script an authored target's host page loads. */
const TARGET_PAGE_SOURCES = [
  "default-src 'none'",
  "script-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
];

/** The manifest's policy for the extension's own pages (Chrome's `content_security_policy.extension_pages`). */
export const EXTENSION_PAGES_CSP = "script-src 'self'; object-src 'self'";

/**
 * The manifest's policy for its sandbox pages (Chrome's `content_security_policy.sandbox`): the targets,
 * artifact-host.html (which adds targetArtifactCsp on top) and job-sandbox.html (which adds JOB_SANDBOX_CSP).
 */
export const TARGET_SANDBOX_CSP = [
  'sandbox allow-scripts',
  ...TARGET_PAGE_SOURCES,
  // Never opened per page: a policy in a meta tag does not stop <link rel=prefetch> in Chromium, this one does. An
  // authored target reaches the origins the user granted it through its host's relayed fetch instead.
  "connect-src 'none'",
  "worker-src 'self' blob:",
  "frame-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * job-sandbox.html's own policy, in its meta tag (written at build by `scripts/job-sandbox-page.ts`), so it holds on
 * Firefox too, which has no sandbox pages: its one script from the extension, jobs only as blob workers, no network.
 */
export const JOB_SANDBOX_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  'worker-src blob:',
  "connect-src 'none'",
  "frame-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The policy an authored target runs under, added by its host page on top of the sandbox's own (which already
 * allows no network at all): scripts only from the extension and the host's blob URL, no workers, frames, forms or
 * base. It names the origins the user granted; those are reached through the host's relayed fetch.
 */
export function targetArtifactCsp(granted: readonly TargetGrant[]): string {
  return framePolicy(
    granted.flatMap((grant) => (grant.permission === 'network' && grant.origin ? [grant.origin] : [])),
  );
}

/**
 * An MCP App's policy: the authored targets' one, its connect-src only the origins the resource declared in
 * `_meta.ui.csp.connectDomains` that the user also granted (none by default). Declared resource domains are not
 * added: the sandbox's own policy loads nothing from outside the extension.
 */
export function mcpAppCsp(declaredConnect: readonly string[], granted: readonly string[]): string {
  const declared = new Set(declaredConnect.flatMap((domain) => originOf(domain)));
  return framePolicy(granted.flatMap((domain) => originOf(domain)).filter((origin) => declared.has(origin)));
}

function originOf(domain: string): string[] {
  try {
    const url = new URL(domain);
    return url.protocol === 'https:' || url.protocol === 'http:' ? [url.origin] : [];
  } catch {
    return [];
  }
}

function framePolicy(connectOrigins: readonly string[]): string {
  const origins = [...new Set(connectOrigins)];
  return [
    ...TARGET_PAGE_SOURCES,
    `connect-src ${origins.length > 0 ? origins.join(' ') : "'none'"}`,
    "worker-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}
