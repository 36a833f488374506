import { expect } from 'vitest';
import { checkChunkingEquivalence } from './chunking-equivalence';
import type { EndpointFormat } from '../support/scripted-endpoint-settings';

/** Runs the chunking check for one format, prints a tally line per fixture and one for the format, asserts each fixture; returns the mismatches. */
export async function expectEquivalentUnderChunking(format: EndpointFormat, chunkings: number): Promise<number> {
  const reports = await checkChunkingEquivalence(format, chunkings);
  const total = reports.reduce((sum, report) => sum + report.chunkings, 0);
  const mismatches = reports.reduce((sum, report) => sum + report.mismatches, 0);
  const lines = reports.map(
    (report) =>
      `[chunking] format=${format} fixture=${report.fixture} chunkings=${report.chunkings} mismatches=${report.mismatches}`,
  );
  console.log(
    [
      ...lines,
      `[chunking] format=${format} fixtures=${reports.length} chunkings=${total} mismatches=${mismatches}`,
    ].join('\n'),
  );
  for (const report of reports) {
    expect(report.chunkings, report.fixture).toBeGreaterThanOrEqual(chunkings);
    expect(report.violations, report.fixture).toEqual([]);
    expect(report.firstMismatch, report.fixture).toBeUndefined();
  }
  return mismatches;
}
