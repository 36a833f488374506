import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '../files/memory-blob-store';
import type { AgentEvent } from '../protocol/agent-event';
import { CANVAS_TARGET } from '../../tests/support/authored-target-fixture';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';
import { MemoryEventStore } from '../session-log/memory-event-store';

const sessionId = 'session-1';
const turnId = 'turn-1';
const SEQUENCES = 1000;

interface Outcome {
  caller: number;
  baseVersion: number;
  output: { ok: boolean; code?: string; version?: number; currentVersion?: number };
}

const step = fc.record({ caller: fc.integer({ min: 0, max: 1 }), wait: fc.boolean() });

describe('updateTarget from two callers at once, against the real runtime', () => {
  it('loses no update: every accepted version is based on its predecessor, every refused one got VERSION_CONFLICT', async () => {
    let sequences = 0;
    let accepted = 0;
    let conflicts = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 5 }), async (steps) => {
        sequences += 1;
        const store = new MemoryEventStore();
        const runtime = testRuntime({ store, blobStore: new MemoryBlobStore(), newId: countingIds('id') });
        await runtime.append(sessionId, [
          { type: 'turn/started', sessionId, turnId, time: 1, data: { userItemId: 'user', text: 'go' } },
        ]);
        let calls = 0;
        const call = (input: unknown) =>
          runtime
            .executeTool({
              sessionId,
              turnId,
              stepId: 'step',
              toolCallId: `call-${++calls}`,
              toolName: 'updateTarget',
              input: input as never,
            })
            .then((result) => result.output as Outcome['output'] & { targetId?: string });
        const created = await runtime.executeTool({
          sessionId,
          turnId,
          stepId: 'step',
          toolCallId: 'create',
          toolName: 'createTarget',
          input: CANVAS_TARGET as never,
        });
        const targetId = (created.output as { targetId: string }).targetId;
        // Each caller updates against the version it last saw, while the other's updates may still be in flight.
        const known = [1, 1];
        const outcomes: Outcome[] = [];
        let pending: Promise<void>[] = [];
        for (const [index, { caller, wait }] of steps.entries()) {
          const baseVersion = known[caller]!;
          pending.push(
            call({ targetId, baseVersion, html: `<p>caller ${caller} step ${index}</p>` }).then((output) => {
              outcomes.push({ caller, baseVersion, output });
              known[caller] = output.ok ? output.version! : (output.currentVersion ?? known[caller]!);
            }),
          );
          if (wait) {
            await Promise.all(pending);
            pending = [];
          }
        }
        await Promise.all(pending);

        const log = await store.read(sessionId, 0);
        const ready = log.filter(
          (event): event is Extract<AgentEvent, { type: 'artifact/ready' }> => event.type === 'artifact/ready',
        );
        const versions = new Map(
          log
            .filter(
              (event): event is Extract<AgentEvent, { type: 'artifact/created' }> => event.type === 'artifact/created',
            )
            .map((event) => [event.data.version, event.data]),
        );
        // Every accepted version's base is the version that was current just before it.
        for (let index = 1; index < ready.length; index++)
          expect(versions.get(ready[index]!.data.version)?.baseVersion).toBe(ready[index - 1]!.data.version);
        const oks = outcomes.filter((outcome) => outcome.output.ok);
        const refused = outcomes.filter((outcome) => !outcome.output.ok);
        expect(outcomes).toHaveLength(steps.length);
        // No update is lost: each accepted call is exactly one ready version, made against the base it sent.
        expect(ready).toHaveLength(1 + oks.length);
        for (const outcome of oks) expect(versions.get(outcome.output.version!)?.baseVersion).toBe(outcome.baseVersion);
        for (const outcome of refused) {
          expect(outcome.output.code).toBe('VERSION_CONFLICT');
          expect(outcome.output.currentVersion).not.toBe(outcome.baseVersion);
        }
        expect(log.some((event) => event.type === 'artifact/rejected')).toBe(false);
        accepted += oks.length;
        conflicts += refused.length;
      }),
      { numRuns: SEQUENCES, seed: 18 },
    );
    console.log(
      `[property] authored target updates: sequences=${sequences} accepted=${accepted} conflicts=${conflicts} lost=0`,
    );
    expect(sequences).toBe(SEQUENCES);
    expect(conflicts).toBeGreaterThan(0);
  }, 60_000);
});
