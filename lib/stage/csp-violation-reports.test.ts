import { describe, expect, it } from 'vitest';
import { CspViolationReports, type CspViolationReport } from './csp-violation-reports';

describe('CspViolationReports', () => {
  it("reports a violation with the target's id", () => {
    const sent: CspViolationReport[] = [];
    new CspViolationReports('counter', (message) => sent.push(message)).report('connect-src', 'https://a.test/x');
    expect(sent).toEqual([
      {
        type: 'stage/target-csp-violation',
        targetId: 'counter',
        directive: 'connect-src',
        blockedUrl: 'https://a.test/x',
      },
    ]);
  });

  it('reports at most 50 violations of one target', () => {
    const sent: CspViolationReport[] = [];
    const reports = new CspViolationReports('counter', (message) => sent.push(message));
    for (let index = 0; index < 60; index += 1) reports.report('img-src', `https://a.test/${index}`);
    expect(sent).toHaveLength(50);
    expect(sent.at(-1)?.blockedUrl).toBe('https://a.test/49');
  });
});
