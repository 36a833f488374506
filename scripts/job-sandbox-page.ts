import { JOB_SANDBOX_CSP } from '../lib/stage/target-csp';

/** Where the job host loads its sandboxed frame from (`browser.runtime.getURL`). */
export const JOB_SANDBOX_PAGE_PATH = 'job-sandbox.html';

/**
 * The job sandbox page, written into the build by wxt.config.ts so its policy is the one JOB_SANDBOX_CSP defines.
 * Its script is a classic one built by entrypoints/job-sandbox/index.ts, not a module: Firefox refuses a module
 * script to a frame with an opaque origin ("Module source URI is not allowed in this document"), a classic one it runs.
 */
export function jobSandboxPage(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${JOB_SANDBOX_CSP}" />
    <title>Splitbrain job sandbox</title>
  </head>
  <body>
    <script src="/job-sandbox.js"></script>
  </body>
</html>
`;
}
