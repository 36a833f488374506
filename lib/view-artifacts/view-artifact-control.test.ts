import { describe, expect, it, vi } from 'vitest';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { MemoryEventStore } from '../session-log/memory-event-store';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import { reduceEvents } from '../state/reduce-events';
import { initialClientState } from '../state/client-state';
import { testRuntime } from '../../tests/support/test-runtime';

const sessionId = 'session-1';

function setup(store = new MemoryEventStore()) {
  const executeTool = vi.fn(async () => ({ ok: true }));
  const runtime = testRuntime({ store, executeTool, now: () => 1_000, longPollMs: 5 });
  return { runtime, store, executeTool };
}

const turnStarted: AgentEventDraft = {
  type: 'turn/started',
  sessionId,
  turnId: 'turn-1',
  time: 1,
  data: { userItemId: 'user-1', text: 'Show me' },
};

const call = (toolCallId: string, toolName: string, input: JsonValue): ToolExecutionRequest => ({
  sessionId,
  turnId: 'turn-1',
  stepId: 'step-1',
  toolCallId,
  toolName,
  input,
});

const table = (speed: number): { kind: string; title: string; data: JsonValue } => ({
  kind: 'table',
  title: 'Speeds',
  data: {
    columns: [{ label: 'Target' }, { label: 'Speed', type: 'number', unit: 'm/s' }],
    rows: [['particles', speed]],
  },
});

describe('showArtifact in the runtime', () => {
  it('versions an artifact: 1, then 2 against base 1; a stale base gets VERSION_CONFLICT and writes nothing', async () => {
    const { runtime, store, executeTool } = setup();
    await runtime.append(sessionId, [turnStarted]);
    const first = await runtime.executeTool(call('call-1', 'showArtifact', table(8)));
    expect(first).toMatchObject({ status: 'completed', output: { ok: true, version: 1, kind: 'table' } });
    const artifactId = (first.output as { artifactId: string }).artifactId;
    const second = await runtime.executeTool(
      call('call-2', 'showArtifact', { ...table(12), artifactId, baseVersion: 1 }),
    );
    expect(second.output).toMatchObject({ ok: true, artifactId, version: 2 });
    const stale = await runtime.executeTool(
      call('call-3', 'showArtifact', { ...table(20), artifactId, baseVersion: 1 }),
    );
    expect(stale).toMatchObject({
      status: 'failed',
      output: { ok: false, code: 'VERSION_CONFLICT', artifactId, currentVersion: 2 },
    });
    const log = await store.read(sessionId, 0);
    const shown = log.filter((event) => event.type === 'artifact/shown');
    expect(shown.map((event) => event.type === 'artifact/shown' && event.data.version)).toEqual([1, 2]);
    expect(executeTool).not.toHaveBeenCalled();
    const state = reduceEvents(initialClientState(sessionId), log);
    const versions = state.viewArtifacts[artifactId].versions;
    expect(versions.map((version) => [version.version, version.toolCallId])).toEqual([
      [1, 'call-1'],
      [2, 'call-2'],
    ]);
    expect(versions[1].content).toEqual({ kind: 'table', data: table(12).data });
  });

  it('refuses invalid data with every path, an unknown artifact, and a change of kind', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted]);
    const invalid = await runtime.executeTool(
      call('call-1', 'showArtifact', { kind: 'table', title: 'T', data: { columns: [], rows: [[1]] } }),
    );
    expect(invalid.output).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
      problems: [{ path: '/data/columns' }, { path: '/data/rows/0' }],
    });
    const unknown = await runtime.executeTool(
      call('call-2', 'showArtifact', { ...table(1), artifactId: 'nope', baseVersion: 1 }),
    );
    expect(unknown.output).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const made = await runtime.executeTool(call('call-3', 'showArtifact', table(1)));
    const artifactId = (made.output as { artifactId: string }).artifactId;
    const otherKind = await runtime.executeTool(
      call('call-4', 'showArtifact', {
        kind: 'code',
        title: 'C',
        data: { language: 'ts', text: 'x' },
        artifactId,
        baseVersion: 1,
      }),
    );
    expect(otherKind.output).toMatchObject({ ok: false, problems: [{ path: '/kind' }] });
    expect((await store.read(sessionId, 0)).filter((event) => event.type === 'artifact/shown')).toHaveLength(1);
  });

  it('a restarted runtime answers a recorded call from the log and never writes its version twice', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted]);
    const first = await runtime.executeTool(call('call-1', 'showArtifact', table(8)));
    const again = await setup(store).runtime.executeTool(call('call-1', 'showArtifact', table(8)));
    expect(again).toMatchObject({ status: 'completed', output: first.output, replayed: true });
    expect((await store.read(sessionId, 0)).filter((event) => event.type === 'artifact/shown')).toHaveLength(1);
  });
});

describe('askUser forms in the runtime', () => {
  const form: JsonValue = {
    question: 'Size of the label?',
    answerType: 'form',
    form: {
      fields: [
        { id: 'width', label: 'Width', type: 'number', unit: 'mm', min: 10, max: 200 },
        { id: 'color', label: 'Colour', type: 'color', default: '#ff8800' },
      ],
    },
  };

  async function pendingForm() {
    const context = setup();
    await context.runtime.append(sessionId, [turnStarted]);
    expect((await context.runtime.executeTool(call('ask-1', 'askUser', form))).status).toBe('waiting');
    const requested = (await context.store.read(sessionId, 0)).find((event) => event.type === 'ask/requested');
    if (requested?.type !== 'ask/requested') throw new Error('no question');
    const schema = requested.data.answerSchema as { artifactId: string; version: number; actions: unknown };
    expect(schema).toMatchObject({ type: 'form', version: 1, actions: [{ id: 'submit', label: 'Submit' }] });
    return { ...context, requestId: requested.requestId, artifactId: schema.artifactId };
  }

  it('refuses an invalid submission with its path and keeps the question open; a valid one becomes the answer', async () => {
    const { runtime, store, requestId, artifactId } = await pendingForm();
    const base = { sessionId, turnId: 'turn-1', requestId, artifactId, version: 1, actionId: 'submit' };
    const refused = await runtime.answerForm({ ...base, payload: { width: 500, color: '#ff8800' } });
    expect(refused).toMatchObject({
      accepted: false,
      status: 'pending',
      problems: [{ path: '/payload/width', message: 'must be at most 200 mm' }],
    });
    expect((await store.read(sessionId, 0)).some((event) => event.type === 'artifact/action')).toBe(false);
    expect(await runtime.answerAsk({ sessionId, turnId: 'turn-1', requestId, answer: 'x' })).toMatchObject({
      accepted: false,
    });
    expect(await runtime.answerForm({ ...base, payload: { width: 120, color: '#00aa00' } })).toEqual({
      accepted: true,
      status: 'answered',
    });
    const answered = await runtime.executeTool(call('ask-1', 'askUser', form));
    expect(answered).toMatchObject({
      status: 'completed',
      output: { ok: true, answer: { actionId: 'submit', values: { width: 120, color: '#00aa00' } } },
    });
    const action = (await store.read(sessionId, 0)).find((event) => event.type === 'artifact/action');
    expect(action).toMatchObject({
      artifactId,
      requestId,
      data: { version: 1, actionId: 'submit', payload: { width: 120, color: '#00aa00' } },
    });
    expect(await runtime.answerForm({ ...base, payload: { width: 100, color: '#000000' } })).toMatchObject({
      accepted: false,
      status: 'answered',
    });
  });

  it('a form the model got wrong fails the call with every problem and its path', async () => {
    const { runtime } = setup();
    await runtime.append(sessionId, [turnStarted]);
    const result = await runtime.executeTool(
      call('ask-2', 'askUser', {
        question: 'Q',
        answerType: 'form',
        form: {
          fields: [
            { id: 'a', label: 'A', type: 'slider', min: 5, max: 1 },
            { id: 'a', label: 'B', type: 'toggle', onChange: 'setParameter' },
          ],
          actions: [{ id: 'go', label: 'Go', tool: 'resetTarget' }],
        },
      }),
    );
    expect(result.status).toBe('failed');
    const paths = (result.output as { problems: { path: string }[] }).problems.map((problem) => problem.path);
    expect(paths).toEqual(expect.arrayContaining(['/form/fields/1', '/form/actions/0']));
  });
});
