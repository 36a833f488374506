import { expect, it } from 'vitest';
import { expectEquivalentUnderChunking } from './expect-equivalent-under-chunking';

// One file per format so the runner spreads the formats over its workers.
it('anthropic: 200 random 1-5 byte chunkings of every fixture give the AgentEvents of the unsplit stream', async () => {
  expect(await expectEquivalentUnderChunking('anthropic', 200)).toBe(0);
}, 600_000);
