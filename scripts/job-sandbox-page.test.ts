import { describe, expect, it } from 'vitest';
import { JOB_SANDBOX_CSP } from '../lib/stage/target-csp';
import { jobSandboxPage } from './job-sandbox-page';

describe('jobSandboxPage', () => {
  it('puts the one job sandbox policy in its meta tag and loads the classic sandbox script', () => {
    const page = jobSandboxPage();
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${JOB_SANDBOX_CSP}" />`);
    expect(JOB_SANDBOX_CSP).not.toContain('"');
    expect(page).toContain('<script src="/job-sandbox.js"></script>');
    expect(page).not.toContain('type="module"');
  });
});
