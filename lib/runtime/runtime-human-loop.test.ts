import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import { testRuntime } from '../../tests/support/test-runtime';
import { DEFAULT_APPROVAL_POLICY } from '../tool-family/approval-policy';
import { approvalRequirement } from '../tools/approval-requirement';
import type { ToolOutput } from '../protocol/tool-output';
import type { EventStore } from '../session-log/event-store';
import { MemoryEventStore } from '../session-log/memory-event-store';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import type { Runtime } from './runtime';

const sessionId = 'session-1';

function setup(
  store: EventStore = new MemoryEventStore(),
  options: { askExpiresAfterMs?: () => Promise<number> } = {},
) {
  const clock = { now: 1_000 };
  let ids = 0;
  const executeTool = vi.fn(async (): Promise<ToolOutput> => ({ ok: true, applied: true }));
  const runtime = testRuntime({
    store,
    executeTool,
    now: () => clock.now,
    newId: () => `id-${++ids}-${Math.random().toString(36).slice(2, 6)}`,
    approvalRequirement: async (toolName, input) =>
      approvalRequirement(toolName, input, { policy: { ...DEFAULT_APPROVAL_POLICY, expiresAfterSeconds: 60 } }),
    longPollMs: 5,
    ...options,
  });
  return { store, runtime, executeTool, clock };
}

const turnStarted = (turnId = 'turn-1'): AgentEventDraft => ({
  type: 'turn/started',
  sessionId,
  turnId,
  time: 1,
  data: { userItemId: `user-${turnId}`, text: 'Reset it' },
});
const turnCompleted = (turnId = 'turn-1'): AgentEventDraft => ({
  type: 'turn/completed',
  sessionId,
  turnId,
  time: 2,
  data: { reason: 'stop' },
});
const reset = (toolCallId: string, turnId = 'turn-1'): ToolExecutionRequest => ({
  sessionId,
  turnId,
  stepId: 'step-1',
  toolCallId,
  toolName: 'resetTarget',
  input: {},
});
const ask = (toolCallId: string, input: JsonValue): ToolExecutionRequest => ({
  sessionId,
  turnId: 'turn-1',
  stepId: 'step-1',
  toolCallId,
  toolName: 'askUser',
  input,
});

async function log(store: EventStore): Promise<AgentEvent[]> {
  return store.read(sessionId, 0);
}

async function pendingApproval(runtime: Runtime, store: EventStore, toolCallId: string) {
  const result = await runtime.executeTool(reset(toolCallId));
  expect(result.status).toBe('waiting');
  const requested = (await log(store)).findLast(
    (event) => event.type === 'approval/requested' && event.toolCallId === toolCallId,
  );
  if (requested?.type !== 'approval/requested') throw new Error('no approval requested');
  return requested;
}

describe('approvals', () => {
  it('never runs a call that needs approval without it: N calls, 0 executions, each denied once the turn ends', async () => {
    const { runtime, store, executeTool } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    const calls = 25;
    for (let index = 0; index < calls; index++) {
      expect((await runtime.executeTool(reset(`call-${index}`))).status).toBe('waiting');
      expect((await runtime.executeTool(reset(`call-${index}`))).status).toBe('waiting');
    }
    await runtime.append(sessionId, [turnCompleted()]);
    for (let index = 0; index < calls; index++)
      expect((await runtime.executeTool(reset(`call-${index}`))).status).toBe('denied');
    const events = await log(store);
    console.log(
      `approval gate: ${calls} resetTarget calls without approval, ${executeTool.mock.calls.length} executions`,
    );
    expect(executeTool).not.toHaveBeenCalled();
    expect(events.filter((event) => event.type === 'approval/requested')).toHaveLength(calls);
    expect(events.filter((event) => event.type === 'tool/denied')).toHaveLength(calls);
    expect(events.filter((event) => event.type === 'tool/started')).toHaveLength(0);
  });

  it('runs an allowed call exactly once, bound to its toolCallId and arguments hash', async () => {
    const { runtime, store, executeTool } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    const requested = await pendingApproval(runtime, store, 'call-1');
    expect(requested.data.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
    await expect(
      runtime.decideApproval({
        sessionId,
        turnId: 'turn-1',
        toolCallId: 'call-2',
        requestId: requested.requestId,
        decision: 'allow',
      }),
    ).rejects.toThrow(/No such approval/);
    expect(
      await runtime.decideApproval({
        sessionId,
        turnId: 'turn-1',
        toolCallId: 'call-1',
        requestId: requested.requestId,
        decision: 'allow',
      }),
    ).toEqual({ accepted: true, status: 'allowed' });
    expect((await runtime.executeTool(reset('call-1'))).status).toBe('completed');
    expect((await runtime.executeTool(reset('call-1'))).status).toBe('completed');
    expect(executeTool).toHaveBeenCalledTimes(1);
  });

  it('counts exactly one answer per requestId: double clicks and two panels', async () => {
    const { runtime, store, executeTool } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    const requested = await pendingApproval(runtime, store, 'call-1');
    const decide = (decision: 'allow' | 'deny') =>
      runtime.decideApproval({
        sessionId,
        turnId: 'turn-1',
        toolCallId: 'call-1',
        requestId: requested.requestId,
        decision,
      });
    const answers = await Promise.all([decide('deny'), decide('allow'), decide('allow'), decide('deny')]);
    expect(answers.filter((answer) => answer.accepted)).toEqual([{ accepted: true, status: 'denied' }]);
    expect(answers.slice(1).every((answer) => answer.status === 'denied')).toBe(true);
    expect((await log(store)).filter((event) => event.type === 'approval/decided')).toHaveLength(1);
    expect((await runtime.executeTool(reset('call-1'))).status).toBe('denied');
    expect(executeTool).not.toHaveBeenCalled();
  });

  it('lets the runtime clock decide expiry: a late allow is refused and the call is denied', async () => {
    const { runtime, store, executeTool, clock } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    const requested = await pendingApproval(runtime, store, 'call-1');
    clock.now = requested.data.expiresAt;
    expect(
      await runtime.decideApproval({
        sessionId,
        turnId: 'turn-1',
        toolCallId: 'call-1',
        requestId: requested.requestId,
        decision: 'allow',
      }),
    ).toEqual({ accepted: false, status: 'expired' });
    const result = await runtime.executeTool(reset('call-1'));
    expect(result).toMatchObject({ status: 'denied', output: { ok: false, denied: true } });
    expect(executeTool).not.toHaveBeenCalled();
  });

  it('after a restart a pending approval has lost its context: it expires, is asked again with a new id, and is never allowed by default', async () => {
    const store = new MemoryEventStore();
    const first = setup(store);
    await first.runtime.append(sessionId, [turnStarted()]);
    const before = await pendingApproval(first.runtime, store, 'call-1');
    const second = setup(store);
    expect(
      await second.runtime.decideApproval({
        sessionId,
        turnId: 'turn-1',
        toolCallId: 'call-1',
        requestId: before.requestId,
        decision: 'allow',
      }),
    ).toEqual({ accepted: false, status: 'expired' });
    const after = await pendingApproval(second.runtime, store, 'call-1');
    expect(after.requestId).not.toBe(before.requestId);
    const expired = (await log(store)).find((event) => event.type === 'approval/expired');
    expect(expired).toMatchObject({ requestId: before.requestId, data: { cause: 'context-lost' } });
    expect(second.executeTool).not.toHaveBeenCalled();
    await second.runtime.decideApproval({
      sessionId,
      turnId: 'turn-1',
      toolCallId: 'call-1',
      requestId: after.requestId,
      decision: 'allow',
    });
    expect((await second.runtime.executeTool(reset('call-1'))).status).toBe('completed');
    expect(first.executeTool.mock.calls.length + second.executeTool.mock.calls.length).toBe(1);
  });

  it('a subscriber that reconnects sees the same pending request with the same id', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    const requested = await pendingApproval(runtime, store, 'call-1');
    const again = await runtime.subscribe(sessionId, () => undefined);
    const pending = again.snapshot.filter((event) => event.type === 'approval/requested');
    expect(pending.map((event) => (event.type === 'approval/requested' ? event.requestId : ''))).toEqual([
      requested.requestId,
    ]);
  });

  it('"allow for this target in this session" lets later calls on that target run without asking', async () => {
    const store = new MemoryEventStore();
    let clock = 1_000;
    const executeTool = vi.fn(async (): Promise<ToolOutput> => ({ ok: true }));
    const target = { id: 'particles', title: 'Particles', description: 'd', entry: 'index.html', params: {} };
    const runtime = testRuntime({
      store,
      executeTool,
      now: () => clock++,
      newId: () => `id-${clock++}`,
      longPollMs: 5,
      approvalRequirement: async (toolName, input) =>
        approvalRequirement(toolName, input, { policy: DEFAULT_APPROVAL_POLICY, target }),
    });
    await runtime.append(sessionId, [turnStarted()]);
    const requested = await pendingApproval(runtime, store, 'call-1');
    await runtime.decideApproval({
      sessionId,
      turnId: 'turn-1',
      toolCallId: 'call-1',
      requestId: requested.requestId,
      decision: 'allow',
      scope: 'target-session',
    });
    expect((await runtime.executeTool(reset('call-1'))).status).toBe('completed');
    expect((await runtime.executeTool(reset('call-2'))).status).toBe('completed');
    expect(executeTool).toHaveBeenCalledTimes(2);
  });
});

describe('the target a call acts on', () => {
  it('is named by tool/requested and tool/started, so the card can show it', async () => {
    const store = new MemoryEventStore();
    const target = { id: 'particles', title: 'Particles', description: 'd', entry: 'index.html', params: {} };
    const runtime = testRuntime({
      store,
      newId: () => 'id',
      approvalRequirement: async (toolName, input) =>
        approvalRequirement(toolName, input, { policy: DEFAULT_APPROVAL_POLICY, target }),
    });
    await runtime.append(sessionId, [turnStarted()]);
    await runtime.executeTool({
      sessionId,
      turnId: 'turn-1',
      stepId: 'step-1',
      toolCallId: 'call-1',
      toolName: 'getParameters',
      input: {},
    });
    const events = await log(store);
    expect(events.find((event) => event.type === 'tool/requested')).toMatchObject({ data: { targetId: 'particles' } });
    expect(events.find((event) => event.type === 'tool/started')).toMatchObject({ data: { targetId: 'particles' } });
  });
});

describe('asks', () => {
  it('waits for an answer checked against the schema and never fills one in', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    const question = ask('ask-1', { question: 'Which palette?', answerType: 'choice', choices: ['warm', 'cold'] });
    expect((await runtime.executeTool(question)).status).toBe('waiting');
    expect((await runtime.executeTool(question)).status).toBe('waiting');
    const requested = (await log(store)).find((event) => event.type === 'ask/requested');
    if (requested?.type !== 'ask/requested') throw new Error('no ask');
    expect(
      await runtime.answerAsk({ sessionId, turnId: 'turn-1', requestId: requested.requestId, answer: 'purple' }),
    ).toEqual({ accepted: false, status: 'pending', error: 'Pick one of: warm, cold.' });
    expect(
      await runtime.answerAsk({ sessionId, turnId: 'turn-1', requestId: requested.requestId, answer: 'cold' }),
    ).toEqual({ accepted: true, status: 'answered' });
    expect(
      await runtime.answerAsk({ sessionId, turnId: 'turn-1', requestId: requested.requestId, answer: 'warm' }),
    ).toEqual({ accepted: false, status: 'answered' });
    expect(await runtime.executeTool(question)).toMatchObject({
      status: 'completed',
      output: { ok: true, answer: 'cold' },
    });
  });

  it('stays answerable with the same id after a restart, and expires by the runtime clock into a result that says not to guess', async () => {
    const store = new MemoryEventStore();
    const first = setup(store, { askExpiresAfterMs: async () => 60_000 });
    await first.runtime.append(sessionId, [turnStarted()]);
    const question = ask('ask-1', { question: 'How many?', answerType: 'number' });
    await first.runtime.executeTool(question);
    const second = setup(store, { askExpiresAfterMs: async () => 60_000 });
    expect((await second.runtime.executeTool(question)).status).toBe('waiting');
    const asked = (await log(store)).filter((event) => event.type === 'ask/requested');
    expect(asked).toHaveLength(1);
    second.clock.now = 1_000 + 60_000;
    const expired = await second.runtime.executeTool(question);
    expect(expired.status).toBe('failed');
    expect(JSON.stringify(expired.output)).toMatch(/Do not guess/);
    if (asked[0].type !== 'ask/requested') throw new Error('no ask');
    expect(
      await second.runtime.answerAsk({ sessionId, turnId: 'turn-1', requestId: asked[0].requestId, answer: 3 }),
    ).toMatchObject({ accepted: false, status: 'expired' });
  });
});

describe('steer and cancel commands', () => {
  it('queues a steer while the turn runs, applies it once at the safe point, and marks one sent after the turn ended as stale', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    expect(
      await runtime.submitCommand({
        sessionId,
        turnId: 'turn-1',
        commandId: 'steer-1',
        kind: 'steer',
        text: 'make it blue too',
      }),
    ).toMatchObject({ state: 'queued' });
    expect(await runtime.takeSteers(sessionId, 'turn-1')).toEqual([{ commandId: 'steer-1', text: 'make it blue too' }]);
    expect(await runtime.takeSteers(sessionId, 'turn-1')).toEqual([]);
    expect(
      await runtime.submitCommand({
        sessionId,
        turnId: 'turn-1',
        commandId: 'steer-2',
        kind: 'steer',
        text: 'and slower',
      }),
    ).toMatchObject({ state: 'queued' });
    await runtime.append(sessionId, [turnCompleted()]);
    expect(await runtime.commandStatus(sessionId, 'steer-2')).toMatchObject({ state: 'stale' });
    expect(
      await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'steer-3', kind: 'steer', text: 'late' }),
    ).toMatchObject({ state: 'stale', turnStatus: 'completed' });
    await runtime.append(sessionId, [turnStarted('turn-2')]);
    expect(await runtime.takeSteers(sessionId, 'turn-2')).toEqual([]);
    const states = (await log(store)).flatMap((event) =>
      event.type === 'command/state' ? [`${event.commandId}:${event.data.state}`] : [],
    );
    expect(states).toEqual(['steer-1:queued', 'steer-1:applied', 'steer-2:queued', 'steer-2:stale', 'steer-3:stale']);
  });

  it('withdraws a queued steer so it is never applied; a steer already applied, or withdrawn, reports that and changes nothing', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    await runtime.submitCommand({
      sessionId,
      turnId: 'turn-1',
      commandId: 'steer-1',
      kind: 'steer',
      text: 'make it blue too',
    });
    await runtime.submitCommand({
      sessionId,
      turnId: 'turn-1',
      commandId: 'steer-2',
      kind: 'steer',
      text: 'and slower',
    });
    expect(await runtime.withdrawSteer(sessionId, 'steer-1')).toMatchObject({
      state: 'cancelled',
      turnStatus: 'running',
    });
    expect(await runtime.withdrawSteer(sessionId, 'steer-1')).toMatchObject({ state: 'cancelled' });
    expect(await runtime.takeSteers(sessionId, 'turn-1')).toEqual([{ commandId: 'steer-2', text: 'and slower' }]);
    expect(await runtime.withdrawSteer(sessionId, 'steer-2')).toMatchObject({ state: 'applied' });
    await expect(runtime.withdrawSteer(sessionId, 'never-sent')).rejects.toThrow('No such addition');
    await runtime.append(sessionId, [turnCompleted()]);
    const states = (await log(store)).flatMap((event) =>
      event.type === 'command/state' ? [`${event.commandId}:${event.data.state}`] : [],
    );
    expect(states).toEqual(['steer-1:queued', 'steer-2:queued', 'steer-1:cancelled', 'steer-2:applied']);
  });

  it('a withdrawal and a safe point at the same moment: exactly one wins, never both', async () => {
    for (let round = 0; round < 20; round++) {
      const { runtime } = setup();
      await runtime.append(sessionId, [turnStarted()]);
      await runtime.submitCommand({
        sessionId,
        turnId: 'turn-1',
        commandId: 'steer-1',
        kind: 'steer',
        text: 'make it blue too',
      });
      // Either may reach the session lock first.
      const withdrawFirst = round % 2 === 1;
      const withdrawing = withdrawFirst ? runtime.withdrawSteer(sessionId, 'steer-1') : undefined;
      const taking = runtime.takeSteers(sessionId, 'turn-1');
      const [taken, withdrawn] = await Promise.all([
        taking,
        withdrawing ?? runtime.withdrawSteer(sessionId, 'steer-1'),
      ]);
      expect(taken.length === 1).toBe(withdrawn.state === 'applied');
      expect(taken.length === 0).toBe(withdrawn.state === 'cancelled');
      expect(await runtime.commandStatus(sessionId, 'steer-1')).toMatchObject({ state: withdrawn.state });
    }
  });

  it('cancels one turn by id: the driver is told, a repeat reports the recorded state, and the next turn is never touched', async () => {
    const { runtime, store } = setup();
    const told = vi.fn();
    runtime.registerOwner('panel-1', told);
    runtime.claimTurn('panel-1', 'turn-1');
    await runtime.append(sessionId, [turnStarted()]);
    expect(
      await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'cancel-1', kind: 'cancel' }),
    ).toMatchObject({ state: 'accepted', turnStatus: 'running' });
    expect(told).toHaveBeenCalledWith({ turnId: 'turn-1', commandId: 'cancel-1' });
    await runtime.append(sessionId, [
      {
        type: 'turn/aborted',
        sessionId,
        turnId: 'turn-1',
        commandId: 'cancel-1',
        time: 3,
        data: { reason: 'Stopped by the user.' },
      },
    ]);
    expect(await runtime.commandStatus(sessionId, 'cancel-1')).toMatchObject({
      state: 'applied',
      turnStatus: 'aborted',
    });
    await runtime.append(sessionId, [turnStarted('turn-2')]);
    expect(
      await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'cancel-1', kind: 'cancel' }),
    ).toMatchObject({ state: 'applied', turnStatus: 'aborted' });
    expect(
      await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'cancel-2', kind: 'cancel' }),
    ).toMatchObject({ state: 'stale', turnStatus: 'aborted' });
    expect(told).toHaveBeenCalledTimes(1);
    const events = await log(store);
    expect(events.filter((event) => event.type === 'turn/aborted').map((event) => event.turnId)).toEqual(['turn-1']);
    expect(await runtime.commandStatus(sessionId, 'never-sent')).toEqual({ commandId: 'never-sent', state: 'unknown' });
  });

  it('stops a turn whose driver is gone itself, so a cancel never waits on nobody', async () => {
    const { runtime, store } = setup();
    await runtime.append(sessionId, [turnStarted()]);
    expect(
      await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'cancel-1', kind: 'cancel' }),
    ).toMatchObject({ state: 'applied', turnStatus: 'aborted' });
    expect((await log(store)).find((event) => event.type === 'turn/aborted')).toMatchObject({ commandId: 'cancel-1' });
  });

  it('a cancel that arrives after its own abort was recorded is applied, not stale', async () => {
    const { runtime } = setup();
    await runtime.append(sessionId, [
      turnStarted(),
      {
        type: 'turn/aborted',
        sessionId,
        turnId: 'turn-1',
        commandId: 'cancel-1',
        time: 3,
        data: { reason: 'Stopped by the user.' },
      },
    ]);
    expect(
      await runtime.submitCommand({ sessionId, turnId: 'turn-1', commandId: 'cancel-1', kind: 'cancel' }),
    ).toMatchObject({ state: 'applied' });
  });
});
