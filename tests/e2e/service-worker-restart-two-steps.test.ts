import { describe, it } from 'vitest';
import { workerStopHarness } from './worker-stop-harness';

describe('the service worker is stopped at every durable write of a run of two tool steps', () => {
  const harness = workerStopHarness(2);

  it('executes no tool call twice, loses no acknowledged event, and ends every turn in a final state the panel shows', async () => {
    await harness.expectNothingLostAtEveryWrite([2]);
  }, 600_000);
});
