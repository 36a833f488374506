import { describe, expect, it } from 'vitest';
import type { JobHostCommand } from '../protocol/job-host-wire';
import { EMPTY_OUTPUT } from './output-window';
import { testRuntime } from '../../tests/support/test-runtime';
import { JobHostLink, type JobHostPort } from './job-host-link';
import { MemoryEventStore } from '../session-log/memory-event-store';

const sessionId = 'session-1';
const turnId = 'turn-1';

/** A host page that opens on demand and greets on connect, as a fresh Firefox frame or offscreen document does. */
function freshHost() {
  const sent: JobHostCommand[] = [];
  let deliver: (message: unknown) => void = () => undefined;
  const port: JobHostPort = {
    postMessage: (message) => sent.push(message),
    onMessage: (listener) => (deliver = listener),
    onDisconnect: () => undefined,
  };
  let opened = false;
  const link = new JobHostLink({
    openHost: async () => {
      if (opened) return;
      opened = true;
      setTimeout(() => {
        link.attach(port);
        deliver({ type: 'job-host/hello', running: [], finished: [] });
      }, 5);
    },
    hostExists: async () => opened,
    connectTimeoutMs: 1_000,
    hostGoneAfterMs: 1_000,
  });
  return { link, sent, report: (message: unknown) => deliver(message) };
}

describe('a job host that is opened by the first runScript', () => {
  it('its first hello, which cannot list the job being started, does not orphan it', async () => {
    const host = freshHost();
    const store = new MemoryEventStore();
    const runtime = testRuntime({ store, jobHost: host.link });
    await runtime.append(sessionId, [
      { type: 'turn/started', sessionId, turnId, time: 1, data: { userItemId: 'user', text: 'go' } },
    ]);
    await runtime.executeTool({
      sessionId,
      turnId,
      stepId: 'step',
      toolCallId: 'call-1',
      toolName: 'runScript',
      input: { code: '6 * 7', background: true },
    });
    const start = host.sent.find((command) => command.type === 'job-host/start');
    expect(start?.type).toBe('job-host/start');
    const jobId = start?.type === 'job-host/start' ? start.spec.jobId : '';
    await new Promise((resolve) => setTimeout(resolve, 20));
    host.report({ type: 'job-host/started', sessionId, jobId });
    host.report({
      type: 'job-host/finished',
      outcome: {
        state: 'completed',
        sessionId,
        jobId,
        result: '42',
        resultBytes: 2,
        output: EMPTY_OUTPUT,
        durationMs: 1,
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const types = (await store.read(sessionId, 0))
      .filter((event) => 'jobId' in event && event.jobId === jobId)
      .map((event) => event.type);
    expect(types).toEqual(['job/created', 'job/running', 'job/completed', 'notify/job-finished']);
  });
});
