import { describe, it } from 'vitest';
import { workerStopHarness } from './worker-stop-harness';

describe('the service worker is stopped at every durable write of a run of three tool steps', () => {
  const harness = workerStopHarness(3);

  it('executes no tool call twice, loses no acknowledged event, and ends every turn in a final state the panel shows', async () => {
    await harness.expectNothingLostAtEveryWrite([3]);
  }, 600_000);
});
