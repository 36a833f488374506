import { describe, expect, it } from 'vitest';
import type { JobHostCommand, JobOutcome } from '../protocol/job-host-wire';
import { SandboxStartQueue } from './sandbox-start-queue';

function queue() {
  const sent: JobHostCommand[] = [];
  const reported: JobOutcome[] = [];
  const timers: (() => void)[] = [];
  const starts = new SandboxStartQueue({
    send: (command) => sent.push(command),
    report: (outcome) => reported.push(outcome),
    setTimer: (run) => timers.push(run),
    readyTimeoutMs: 10_000,
  });
  return { starts, sent, reported, timers };
}

const start = (jobId: string): JobHostCommand => ({
  type: 'job-host/start',
  spec: { sessionId: 'session', jobId, code: 'return 1', input: null, timeoutMs: 5000 },
});

describe('SandboxStartQueue', () => {
  it('holds commands until the frame is ready, then sends them in order, and later ones at once', () => {
    const { starts, sent, reported, timers } = queue();
    starts.command(start('a'));
    starts.command({ type: 'job-host/kill', jobId: 'a' });
    expect(sent).toEqual([]);
    starts.frameReady();
    expect(sent).toEqual([start('a'), { type: 'job-host/kill', jobId: 'a' }]);
    starts.command(start('b'));
    expect(sent.at(-1)).toEqual(start('b'));
    for (const run of timers) run();
    expect(reported).toEqual([]);
  });

  it('fails a start whose frame never becomes ready, with its kill dropped, and never sends it later', () => {
    const { starts, sent, reported, timers } = queue();
    starts.command(start('a'));
    starts.command({ type: 'job-host/kill', jobId: 'a' });
    starts.command(start('b'));
    timers[0]();
    expect(reported).toEqual([
      expect.objectContaining({
        state: 'failed',
        jobId: 'a',
        reason: 'host',
        message: 'The script sandbox did not start within 10 s, so the script was not run.',
      }),
    ]);
    starts.frameReady();
    expect(sent).toEqual([start('b')]);
    timers[1]();
    expect(reported).toHaveLength(1);
  });
});
