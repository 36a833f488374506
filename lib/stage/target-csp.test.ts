import { describe, expect, it } from 'vitest';
import { EXTENSION_PAGES_CSP, JOB_SANDBOX_CSP, TARGET_SANDBOX_CSP, targetArtifactCsp, mcpAppCsp } from './target-csp';

const granted = [
  { permission: 'network' as const, origin: 'http://127.0.0.1:9000' },
  { permission: 'clipboard' as const },
];

describe('targetArtifactCsp', () => {
  it('names no origin until one is granted, and then only that one', () => {
    expect(targetArtifactCsp([])).toContain("connect-src 'none'");
    expect(targetArtifactCsp(granted)).toContain('connect-src http://127.0.0.1:9000;');
    expect(targetArtifactCsp(granted)).toContain("worker-src 'none'");
  });

  it('names each granted origin once, in the order granted', () => {
    const twice = [...granted, { permission: 'network' as const, origin: 'https://a.org' }, granted[0]];
    expect(targetArtifactCsp(twice)).toBe(
      "default-src 'none'; script-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; connect-src http://127.0.0.1:9000 https://a.org; worker-src 'none'; frame-src 'none'; child-src 'none'; form-action 'none'; base-uri 'none'",
    );
  });
});

describe('mcpAppCsp', () => {
  it('connects nowhere by default, even to what the app declares', () => {
    expect(mcpAppCsp(['https://api.example'], [])).toContain("connect-src 'none'");
  });

  it('connects only to declared origins the user granted', () => {
    const policy = mcpAppCsp(
      ['https://api.example/v1', 'https://other.example'],
      ['https://api.example', 'https://undeclared.example'],
    );
    expect(policy).toContain('connect-src https://api.example;');
    expect(policy).not.toContain('undeclared');
    expect(policy).toContain("script-src 'self' blob:");
  });
});

describe('the manifest policies', () => {
  it('sandbox pages load only their own files and blob scripts, connect nowhere and frame nothing', () => {
    expect(TARGET_SANDBOX_CSP).toBe(
      "sandbox allow-scripts; default-src 'none'; script-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; connect-src 'none'; worker-src 'self' blob:; frame-src 'none'; form-action 'none'; base-uri 'none'",
    );
    expect(EXTENSION_PAGES_CSP).toBe("script-src 'self'; object-src 'self'");
  });

  it('the job sandbox runs its own script and blob workers only, and connects nowhere', () => {
    expect(JOB_SANDBOX_CSP).toBe(
      "default-src 'none'; script-src 'self'; worker-src blob:; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'",
    );
  });
});
