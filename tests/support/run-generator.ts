import { REWIND_MODES } from '../../lib/protocol/rewind-events';
import type { AgentEvent, AgentEventDraft } from '../../lib/protocol/agent-event';
import type { TokenUsage } from '../../lib/protocol/token-usage';
import { sideEffectOf } from '../../lib/tools/tool-registry';
import { Random } from './random';
import { RunDriver, type CapturedSnapshot } from './run-driver';
import { streamDraft, streamParts, type StepContext, type StreamItem, type StreamTool } from './stream-blocks';

/** A realistic session as the runtime recorded and broadcast it. */
export interface GeneratedRun {
  seed: number;
  sessionId: string;
  /** Every event the runtime broadcast, in order, durable and transient: what an always-connected subscriber saw. */
  live: AgentEvent[];
  /** The durable log as stored. */
  log: AgentEvent[];
  /** Positions in `live` at which the runtime restarted with nothing in memory. */
  restarts: number[];
  /** Real subscription snapshots taken at some positions of `live`. */
  snapshots: CapturedSnapshot[];
  /** How often the tool executor ran, per toolCallId. */
  executions: Map<string, number>;
  /** Every toolCallId the run asked the runtime to execute. */
  requestedToolCalls: Set<string>;
  /** Side-effecting calls whose runtime died after recording their start: their outcome must be unknown. */
  crashedToolCalls: Set<string>;
}

export interface RunOptions {
  maxTurns?: number;
  maxSteps?: number;
  /** Probability of a runtime restart at each quiet point (no item streaming). */
  restartChance?: number;
  /** Probability of taking a real snapshot after each append. */
  snapshotChance?: number;
}

const WORDS = [
  'speed',
  'is',
  'now',
  '12 m/s',
  '速度',
  '已设置',
  '🚀',
  'vectors',
  'on',
  '✨',
  'mode',
  'auto',
  '粒子',
  'done.',
  '\n',
];

type Ending = 'complete' | 'abort' | 'stream-error' | 'retry' | 'owner-gone' | 'repeated-call';

/** Plays one random session against a real Runtime, the way the side panel's agent loop would. */
export async function generateRun(seed: number, options: RunOptions = {}): Promise<GeneratedRun> {
  const generator = new SessionScript(new Random(seed), options);
  await generator.play();
  const driver = generator.driver;
  return {
    seed,
    sessionId: driver.sessionId,
    live: driver.live,
    log: await driver.store.read(driver.sessionId, 0),
    restarts: driver.restarts,
    snapshots: driver.snapshots,
    executions: driver.executions,
    requestedToolCalls: generator.requestedToolCalls,
    crashedToolCalls: generator.crashedToolCalls,
  };
}

class SessionScript {
  readonly driver: RunDriver;
  readonly requestedToolCalls = new Set<string>();
  readonly crashedToolCalls = new Set<string>();
  private readonly sessionId: string;
  private readonly maxTurns: number;
  private readonly maxSteps: number;
  private readonly restartChance: number;
  private readonly snapshotChance: number;
  /** `failedAttempt`: the turn ended in that failed model request, which a step retry may run again. */
  private lastEndedTurn: { turnId: string; completed: boolean; failedAttempt?: string } | undefined;
  private completedSteps = 0;
  /** Every turn started so far, with the parent it was given, for edits, regenerations and switches. */
  private readonly startedTurns: { turnId: string; parentTurnId: string | null }[] = [];
  private leaf: string | null = null;
  /** The app contexts recorded so far: a message may name some (or one the log does not hold). */
  private readonly appContextIds: string[] = [];

  constructor(
    private readonly random: Random,
    options: RunOptions,
  ) {
    this.sessionId = `session-${random.int(1, 9)}`;
    this.driver = new RunDriver(this.sessionId);
    this.maxTurns = options.maxTurns ?? 4;
    this.maxSteps = options.maxSteps ?? 3;
    this.restartChance = options.restartChance ?? 0.08;
    this.snapshotChance = options.snapshotChance ?? 0.05;
  }

  /** Usage that varies with the step without drawing from the random sequence, so runs stay what their seeds made them. */
  private stepUsage(): { usage?: TokenUsage; model?: string } {
    const step = (this.completedSteps += 1);
    switch (step % 4) {
      case 0:
        return {};
      case 1:
        return { usage: { inputTokens: 100 + step, outputTokens: step }, model: 'gpt-4o' };
      case 2:
        return {
          usage: { inputTokens: 200 + step, outputTokens: 2 * step, reasoningTokens: step, cachedInputTokens: 50 },
          model: 'claude-sonnet-4',
        };
      default:
        return { usage: { outputTokens: 0 } };
    }
  }

  async play(): Promise<void> {
    await this.driver.attach();
    await this.append([
      { type: 'session/created', sessionId: this.sessionId, time: this.driver.now(), data: { title: this.text(3) } },
    ]);
    const turns = this.random.int(1, this.maxTurns);
    for (let index = 0; index < turns; index++) {
      await this.sessionExtras();
      if (this.random.chance(0.2)) await this.append([this.appContext()]);
      await this.playTurn();
      await this.quietPoint();
    }
    await this.sessionExtras();
  }

  private async append(drafts: AgentEventDraft[]): Promise<void> {
    await this.driver.append(drafts);
    if (this.random.chance(this.snapshotChance)) await this.driver.captureSnapshot();
  }

  /** A point where nothing streams: the runtime may restart here without losing a partial the user saw. */
  private async quietPoint(): Promise<void> {
    if (this.random.chance(this.restartChance)) await this.driver.restart();
    if (this.random.chance(this.snapshotChance)) await this.driver.captureSnapshot();
  }

  private text(words: number): string {
    return Array.from({ length: words }, () => this.random.pick(WORDS)).join(' ');
  }

  /** What an MCP App told the model (the runtime writes it); a later message may carry it. */
  private appContext(): AgentEventDraft {
    const contextId = this.driver.newId('context');
    this.appContextIds.push(contextId);
    return {
      type: 'mcp-app/context',
      sessionId: this.sessionId,
      contextId,
      time: this.driver.now(),
      data: {
        targetId: `mcp-app-${this.random.int(1, 3)}`,
        app: 'showCounter',
        serverName: 'Apps',
        text: this.text(3),
        ...(this.random.chance(0.5) ? { structuredContent: { count: this.random.int(0, 9) } } : {}),
        marker: 'ab'.repeat(16),
      },
    };
  }

  /** A compaction of the turns so far, sometimes recorded twice (its append retried across a restart). */
  private compaction(throughTurnId: string): AgentEventDraft[] {
    const draft: AgentEventDraft = {
      type: 'context/compacted',
      sessionId: this.sessionId,
      compactionId: this.driver.newId('compaction'),
      time: this.driver.now(),
      data: {
        throughTurnId,
        summary: this.text(12),
        summaryTokens: 20,
        coveredTokens: 400,
        method: this.random.pick(['model', 'digest'] as const),
        trigger: this.random.pick(['threshold', 'user'] as const),
      },
    };
    return this.random.chance(0.3) ? [draft, draft] : [draft];
  }

  /** One fact notification of each kind, and sometimes the dismissal of one of them (a duplicate dismissal too). */
  private factNotifications(): AgentEventDraft[] {
    const sessionId = this.sessionId;
    const time = this.driver.now();
    const ids = Array.from({ length: 4 }, () => this.driver.newId('fact'));
    const turnId = this.lastEndedTurn?.turnId;
    const drafts: AgentEventDraft[] = [
      {
        type: 'notify/job-finished',
        sessionId,
        notificationId: ids[0]!,
        jobId: this.driver.newId('job'),
        time,
        data: { state: this.random.pick(['completed', 'failed', 'killed', 'orphaned'] as const), message: 'Job done.' },
      },
      {
        type: 'notify/budget-reached',
        sessionId,
        notificationId: ids[1]!,
        ...(turnId ? { turnId } : {}),
        time,
        data: { budget: 'conversation', unit: 'tokens', limit: 100, used: 120, message: 'Budget reached.' },
      },
      {
        type: 'notify/security-warning',
        sessionId,
        notificationId: ids[2]!,
        time,
        data: { warning: 'blocked-request', url: 'https://example.com/', message: 'A request was blocked.' },
      },
      {
        type: 'notify/access-revoked',
        sessionId,
        notificationId: ids[3]!,
        time,
        data: { origin: 'https://example.com', message: 'Access to example.com was revoked.' },
      },
    ];
    if (this.random.chance(0.5)) {
      const dismissed = this.random.pick(ids);
      for (let copy = 0; copy < 2; copy++)
        drafts.push({ type: 'notify/dismissed', sessionId, notificationId: dismissed!, time, data: {} });
    }
    return drafts;
  }

  /** Versions of a shown artifact (what showArtifact records), and a stale repeat of version 1 that changes nothing. */
  private viewArtifactVersions(turnId: string, toolCallId: string): AgentEventDraft[] {
    const artifactId = this.driver.newId('artifact');
    const version = (number: number, speed: number): AgentEventDraft => ({
      type: 'artifact/shown',
      sessionId: this.sessionId,
      turnId,
      toolCallId,
      artifactId,
      time: this.driver.now(),
      data: {
        version: number,
        ...(number > 1 ? { baseVersion: number - 1 } : {}),
        title: `Speeds v${number}`,
        content: { kind: 'table', data: { columns: [{ label: 'Speed', type: 'number' }], rows: [[speed]] } },
      },
    });
    const drafts = [version(1, this.random.int(0, 50))];
    if (this.random.chance(0.5)) drafts.push(version(2, this.random.int(0, 50)), version(1, 99));
    return drafts;
  }

  /** A job's whole life: live output, sometimes a cancel, one final state, and output or a cancel after it. */
  private jobLife(): AgentEventDraft[] {
    const sessionId = this.sessionId;
    const time = this.driver.now();
    const jobId = this.driver.newId('job');
    const summary = {
      totalBytes: 6,
      head: { text: 'ab', from: 0, to: 2 },
      tail: { text: 'ef', from: 4, to: 6 },
      droppedBytes: 2,
    };
    const output = (index: number, offset: number) => ({
      type: 'job/output' as const,
      sessionId,
      jobId,
      time,
      data: { index, offset, text: 'ab', totalBytes: offset + 2 },
    });
    const drafts: AgentEventDraft[] = [
      {
        type: 'job/created',
        sessionId,
        jobId,
        time,
        data: { code: 'work()', background: true, timeoutMs: 30_000, outputLimitBytes: 10_000 },
      },
      { type: 'job/running', sessionId, jobId, time, data: {} },
      output(0, 0),
      output(1, 2),
    ];
    const commandId = this.driver.newId('command');
    const ending = this.random.pick(['completed', 'failed', 'killed', 'orphaned'] as const);
    if (ending === 'killed') {
      drafts.push({ type: 'job/stopping', sessionId, jobId, commandId, time, data: {} });
      drafts.push({
        type: 'job/killed',
        sessionId,
        jobId,
        commandId,
        time,
        data: { cause: 'user', output: summary, durationMs: 5 },
      });
    } else if (ending === 'completed') {
      drafts.push({
        type: 'job/completed',
        sessionId,
        jobId,
        time,
        data: { result: '42', resultBytes: 2, output: summary, durationMs: 5 },
      });
    } else if (ending === 'failed') {
      drafts.push({
        type: 'job/failed',
        sessionId,
        jobId,
        time,
        data: { reason: 'timeout', message: 'Timed out.', output: summary, durationMs: 5 },
      });
    } else {
      drafts.push({ type: 'job/orphaned', sessionId, jobId, time, data: { reason: 'The host is gone.' } });
    }
    // Nothing changes a job after its final state: a late chunk is dropped, a second cancel only reports it.
    drafts.push(output(2, 4));
    drafts.push({
      type: 'job-command/state',
      sessionId,
      jobId,
      commandId: this.driver.newId('command'),
      time,
      data: { state: 'stale', jobState: ending },
    });
    return drafts;
  }

  /** An authored target's life: a rejected and a ready version, an update that supersedes it, a grant and its revocation. */
  private targetArtifactLife(): AgentEventDraft[] {
    const sessionId = this.sessionId;
    const time = this.driver.now();
    const artifactId = this.driver.newId('artifact');
    const ref = (name: string) => ({
      blobId: 'ef'.repeat(32),
      sha256: 'ef'.repeat(32),
      mime: 'text/plain',
      size: 3,
      name,
    });
    const parts = { manifest: ref('manifest.json'), html: ref('index.html'), script: ref('app.js') };
    const grant = { permission: 'network' as const, origin: 'http://127.0.0.1:9' };
    return [
      {
        type: 'artifact/created',
        sessionId,
        artifactId,
        time,
        data: { kind: 'html-app', version: 1, state: 'draft', parts },
      },
      { type: 'artifact/validating', sessionId, artifactId, time, data: { version: 1, state: 'validating' } },
      {
        type: 'artifact/rejected',
        sessionId,
        artifactId,
        time,
        data: {
          version: 1,
          state: 'rejected',
          problems: [{ code: 'VALIDATION_FAILED', path: '/params', message: 'x' }],
        },
      },
      {
        type: 'artifact/created',
        sessionId,
        artifactId,
        time,
        data: { kind: 'html-app', version: 2, state: 'draft', parts },
      },
      { type: 'artifact/ready', sessionId, artifactId, time, data: { version: 2, state: 'ready', requested: [grant] } },
      {
        type: 'artifact/created',
        sessionId,
        artifactId,
        time,
        data: { kind: 'html-app', version: 3, baseVersion: 2, restoredFrom: 2, state: 'draft', parts },
      },
      { type: 'artifact/ready', sessionId, artifactId, time, data: { version: 3, state: 'ready', requested: [] } },
      { type: 'artifact/superseded', sessionId, artifactId, time, data: { version: 2, state: 'superseded', by: 3 } },
      { type: 'artifact/permission-granted', sessionId, artifactId, time, data: grant },
      { type: 'artifact/permission-revoked', sessionId, artifactId, time, data: grant },
    ];
  }

  /**
   * Where the next turn goes: after the leaf as a version-4 row says it (no parent), or told so, or an edit
   * (a sibling of an earlier turn), or a regeneration of an earlier turn's answer.
   */
  private branchOfNextTurn(): { parentTurnId?: string | null; answerOf?: string } {
    const earlier = this.startedTurns.length ? this.random.pick(this.startedTurns) : undefined;
    const choice = this.random.int(0, 3);
    if (!earlier || choice === 0) return {};
    if (choice === 1) return { parentTurnId: this.leaf };
    if (choice === 2) return { parentTurnId: earlier.parentTurnId };
    return { parentTurnId: earlier.parentTurnId, answerOf: earlier.turnId };
  }

  /** The branch in view switched to an earlier turn, or a switch to a turn the log does not know (ignored). */
  private branchSwitch(): AgentEventDraft {
    const known = this.startedTurns.length > 0 && this.random.chance(0.9);
    const turnId = known ? this.random.pick(this.startedTurns).turnId : this.driver.newId('unknown-turn');
    if (known) this.leaf = turnId;
    return { type: 'branch/switched', sessionId: this.sessionId, turnId, time: this.driver.now(), data: {} };
  }

  /**
   * A rewind to just before an earlier turn's message (the view ends at its parent, in any mode, with the values
   * it restored), or to a turn the log does not know (ignored). The runtime writes it; these are its rows: most
   * name their rewind (version 8) and some have their effects recorded as done (`rewind/completed`).
   */
  private rewind(): AgentEventDraft[] {
    const known = this.startedTurns.length > 0 && this.random.chance(0.9);
    const target = known
      ? this.random.pick(this.startedTurns)
      : { turnId: this.driver.newId('unknown-turn'), parentTurnId: null };
    const mode = this.random.pick(REWIND_MODES);
    const fromLeaf = this.leaf;
    if (known) this.leaf = target.parentTurnId;
    const values =
      mode === 'conversation' ? [] : [{ targetId: 'particles', values: { speed: this.random.int(0, 50) } }];
    const rewindId = this.random.chance(0.8) ? this.driver.newId('rewind') : undefined;
    const applied: AgentEventDraft = {
      type: 'rewind/applied',
      sessionId: this.sessionId,
      turnId: target.turnId,
      time: this.driver.now(),
      data: {
        mode,
        ...(rewindId ? { rewindId } : {}),
        parentTurnId: target.parentTurnId,
        fromLeaf,
        values,
        versions: [],
      },
    };
    if (!rewindId || !this.random.chance(0.6)) return [applied];
    const completed: AgentEventDraft = {
      type: 'rewind/completed',
      sessionId: this.sessionId,
      time: this.driver.now(),
      data: { rewindId, reloaded: [], applied: values.map((entry) => entry.targetId), saved: [] },
    };
    return [applied, completed];
  }

  private async sessionExtras(): Promise<void> {
    const sessionId = this.sessionId;
    if (this.random.chance(0.2)) await this.append([this.branchSwitch()]);
    if (this.random.chance(0.15)) await this.append(this.rewind());
    if (this.random.chance(0.15)) await this.append(this.jobLife());
    if (this.random.chance(0.1)) await this.append(this.targetArtifactLife());
    if (this.random.chance(0.2))
      await this.append([
        { type: 'session/renamed', sessionId, time: this.driver.now(), data: { title: this.text(2) } },
      ]);
    if (this.random.chance(0.2)) {
      await this.append([
        {
          type: 'notification',
          sessionId,
          notificationId: this.driver.newId('note'),
          time: this.driver.now(),
          data: { level: this.random.pick(['info', 'warning', 'error'] as const), message: this.text(4) },
        },
      ]);
    }
    if (this.random.chance(0.2)) await this.append(this.factNotifications());
    if (this.lastEndedTurn && this.random.chance(0.2)) await this.append(this.compaction(this.lastEndedTurn.turnId));
    if (this.random.chance(0.1)) {
      const blobId = this.driver.newId('blob');
      await this.append([
        {
          type: 'blob/referenced',
          sessionId,
          blobId,
          time: this.driver.now(),
          data: { mime: 'image/png', size: this.random.int(1, 5000), sha256: 'ab'.repeat(32) },
        },
        {
          type: 'artifact/referenced',
          sessionId,
          artifactId: this.driver.newId('artifact'),
          time: this.driver.now(),
          data: { version: 1, kind: 'fixed', blobId, sha256: 'cd'.repeat(32) },
        },
        ...(['selected', 'hashing', 'ready', 'cancelled'] as const).map((state) => ({
          type: 'upload/state' as const,
          sessionId,
          uploadId: blobId,
          partId: blobId,
          time: this.driver.now(),
          data: { state, name: 'picture.png', size: 120 },
        })),
      ]);
    }
    if (this.lastEndedTurn && this.random.chance(0.15)) {
      // A steer for a turn that already ended never reaches the next one: it goes stale.
      const commandId = this.driver.newId('command');
      const turnId = this.lastEndedTurn.turnId;
      await this.append([
        {
          type: 'command/state',
          sessionId,
          commandId,
          turnId,
          time: this.driver.now(),
          data: { kind: 'steer', state: 'submitted', text: this.text(2) },
        },
      ]);
      await this.append([
        {
          type: 'command/state',
          sessionId,
          commandId,
          turnId,
          time: this.driver.now(),
          data: { kind: 'steer', state: 'stale', text: this.text(2) },
        },
      ]);
    }
  }

  private async playTurn(): Promise<void> {
    const sessionId = this.sessionId;
    const turnId = this.driver.newId('turn');
    const retriesStep = this.stepRetryOf();
    const retryOf =
      !retriesStep && this.lastEndedTurn && !this.lastEndedTurn.completed && this.random.chance(0.5)
        ? this.lastEndedTurn.turnId
        : undefined;
    const branch = retriesStep
      ? { parentTurnId: retriesStep.turnId }
      : retryOf
        ? { parentTurnId: this.leaf }
        : this.branchOfNextTurn();
    this.startedTurns.push({
      turnId,
      parentTurnId: branch.parentTurnId === undefined ? this.leaf : branch.parentTurnId,
    });
    this.leaf = turnId;
    await this.append([
      {
        type: 'turn/started',
        sessionId,
        turnId,
        time: this.driver.now(),
        data: {
          userItemId: this.driver.newId('user'),
          text: retriesStep ? '' : this.text(4),
          ...(retryOf ? { retryOf } : {}),
          ...(retriesStep ? { retriesStep } : {}),
          ...(!retriesStep && this.appContextIds.length > 0 && this.random.chance(0.5)
            ? {
                appContexts: [...this.appContextIds.slice(-2), ...(this.random.chance(0.1) ? ['no-such-context'] : [])],
              }
            : {}),
          ...branch,
        },
      },
    ]);
    const steps = this.random.int(1, this.maxSteps);
    let stepIndex = 0;
    let step: StepContext = {
      turnId,
      stepId: this.driver.newId('step'),
      attemptId: this.driver.newId('attempt'),
      index: 0,
    };
    for (;;) {
      await this.append([
        {
          type: 'step/started',
          sessionId,
          turnId,
          stepId: step.stepId,
          attemptId: step.attemptId,
          time: this.driver.now(),
          data: { index: step.index },
        },
      ]);
      const { items, tools } = await this.stream(step);
      const ending = this.random.weighted<Ending>({
        complete: 10,
        abort: 1.2,
        'stream-error': 1,
        retry: 0.8,
        'owner-gone': 1,
        'repeated-call': 0.5,
      });
      if (ending === 'abort') return this.abort(step, items);
      if (ending === 'stream-error') return this.streamError(step, items);
      if (ending === 'owner-gone') return this.ownerGone(step, items);
      if (ending === 'retry') {
        await this.append([
          ...this.finals(step, items, 'The connection dropped.'),
          {
            type: 'stream/error',
            sessionId,
            turnId,
            attemptId: step.attemptId,
            time: this.driver.now(),
            data: { message: 'The connection dropped.', code: 'stream', retryable: true },
          },
          {
            type: 'stream/retrying',
            sessionId,
            turnId,
            attemptId: step.attemptId,
            time: this.driver.now(),
            data: { delayMs: 500, until: this.driver.now() + 500, reason: 'retryable' },
          },
        ]);
        step = { ...step, attemptId: this.driver.newId('attempt') };
        continue;
      }
      await this.append([
        ...this.finals(step, items, undefined),
        {
          type: 'step/completed',
          sessionId,
          turnId,
          stepId: step.stepId,
          attemptId: step.attemptId,
          time: this.driver.now(),
          data: { finishReason: tools.length ? 'tool-calls' : 'stop', ...this.stepUsage() },
        },
      ]);
      await this.lateDeltas(step, items);
      await this.quietPoint();
      if (ending === 'repeated-call' && tools.length > 0) {
        await this.append([
          {
            type: 'notification',
            sessionId,
            notificationId: this.driver.newId('note'),
            time: this.driver.now(),
            data: { level: 'warning', message: 'The model repeated the same tool call.' },
          },
        ]);
        return this.endTurn(turnId, 'repeated-call');
      }
      if (tools.length === 0) return this.endTurn(turnId, 'stop');
      for (const tool of tools) await this.runTool(step, tool);
      if (this.random.chance(0.08)) return this.abortAfterTools(turnId);
      stepIndex += 1;
      if (stepIndex >= steps) {
        await this.append([
          {
            type: 'notification',
            sessionId,
            notificationId: this.driver.newId('note'),
            time: this.driver.now(),
            data: { level: 'warning', message: `Stopped after ${steps} steps.` },
          },
        ]);
        return this.endTurn(turnId, 'step-cap');
      }
      step = { turnId, stepId: this.driver.newId('step'), attemptId: this.driver.newId('attempt'), index: stepIndex };
    }
  }

  /**
   * The user presses Retry step on the turn that just failed in a model request, while it is the one in view: the
   * next turn has no message and follows it, so its first request is that turn's history and no call runs again.
   */
  private stepRetryOf(): { turnId: string; attemptId: string } | undefined {
    const failed = this.lastEndedTurn;
    if (!failed?.failedAttempt || this.leaf !== failed.turnId || !this.random.chance(0.5)) return undefined;
    return { turnId: failed.turnId, attemptId: failed.failedAttempt };
  }

  /** The model stream of one attempt: item deltas and tool-argument previews, sent in small batches. */
  private async stream(step: StepContext): Promise<{ items: StreamItem[]; tools: StreamTool[] }> {
    const items: StreamItem[] = Array.from({ length: this.random.int(0, 3) }, () => ({
      kind: this.random.chance(0.7) ? 'assistant' : 'reasoning',
      itemId: this.driver.newId('item'),
      deltas: Array.from({ length: this.random.int(1, 6) }, () => this.text(this.random.int(1, 3))),
      emitted: 0,
    }));
    const tools: StreamTool[] = Array.from({ length: this.random.int(0, 2) }, () => ({
      toolCallId: this.driver.newId('call'),
      toolName: this.random.pick(['getParameters', 'setParameter', 'listTargets']),
      previews: Array.from({ length: this.random.int(0, 4) }, () =>
        this.random.pick(['{"na', 'me":"sp', 'eed","val', 'ue":12}']),
      ),
      emitted: 0,
    }));
    const parts = streamParts(this.random, items, tools);
    const drafts = parts.map((part) => streamDraft(this.sessionId, step, part, this.driver.now()));
    let start = 0;
    while (start < drafts.length) {
      const size = this.random.int(1, 5);
      const batch = drafts.slice(start, start + size);
      if (this.random.chance(0.1))
        batch.push({
          type: 'presence/typing',
          sessionId: this.sessionId,
          time: this.driver.now(),
          data: { active: true },
        });
      await this.append(batch);
      start += size;
    }
    return { items, tools };
  }

  /** Final events of the attempt's items, in first-delta order: completed (maybe repaired by the server) or interrupted with the partial text. */
  private finals(step: StepContext, items: StreamItem[], interruptedBecause: string | undefined): AgentEventDraft[] {
    const { turnId, stepId, attemptId } = step;
    return items.map((item) => {
      const base = {
        sessionId: this.sessionId,
        turnId,
        stepId,
        attemptId,
        itemId: item.itemId,
        time: this.driver.now(),
      };
      const partial = item.deltas.slice(0, item.emitted).join('');
      if (interruptedBecause !== undefined) {
        return {
          ...base,
          type: item.kind === 'assistant' ? 'assistant/interrupted' : 'reasoning/interrupted',
          data: { text: partial, reason: interruptedBecause },
        } as AgentEventDraft;
      }
      const text = this.random.chance(0.15) ? `${partial} [repaired]` : partial;
      return {
        ...base,
        type: item.kind === 'assistant' ? 'assistant/completed' : 'reasoning/completed',
        data: { text },
      } as AgentEventDraft;
    });
  }

  /** An old stream keeps delivering after its item ended: the runtime still relays it. */
  private async lateDeltas(step: StepContext, items: StreamItem[]): Promise<void> {
    if (items.length === 0 || !this.random.chance(0.2)) return;
    const item = this.random.pick(items);
    const { turnId, stepId, attemptId } = step;
    const type = item.kind === 'assistant' ? 'assistant/delta' : 'reasoning/delta';
    await this.append([
      {
        type,
        sessionId: this.sessionId,
        turnId,
        stepId,
        attemptId,
        itemId: item.itemId,
        time: this.driver.now(),
        data: { index: item.emitted, text: ' late' },
      },
    ]);
  }

  private async abort(step: StepContext, items: StreamItem[]): Promise<void> {
    const sessionId = this.sessionId;
    const { turnId } = step;
    const commandId = this.driver.newId('command');
    await this.append([
      {
        type: 'command/state',
        sessionId,
        commandId,
        turnId,
        time: this.driver.now(),
        data: { kind: 'cancel', state: 'submitted' },
      },
    ]);
    await this.append([
      ...this.finals(step, items, 'Stopped by the user.'),
      {
        type: 'turn/aborted',
        sessionId,
        turnId,
        commandId,
        time: this.driver.now(),
        data: { reason: 'Stopped by the user.' },
      },
      {
        type: 'command/state',
        sessionId,
        commandId,
        turnId,
        time: this.driver.now(),
        data: { kind: 'cancel', state: 'applied' },
      },
    ]);
    await this.lateDeltas(step, items);
    this.lastEndedTurn = { turnId, completed: false };
  }

  private async abortAfterTools(turnId: string): Promise<void> {
    await this.append([
      {
        type: 'turn/aborted',
        sessionId: this.sessionId,
        turnId,
        time: this.driver.now(),
        data: { reason: 'Stopped by the user.' },
      },
    ]);
    this.lastEndedTurn = { turnId, completed: false };
  }

  private async streamError(step: StepContext, items: StreamItem[]): Promise<void> {
    const sessionId = this.sessionId;
    const { turnId, attemptId } = step;
    const message = 'The model stream ended without finishing.';
    await this.append([
      ...this.finals(step, items, message),
      {
        type: 'stream/error',
        sessionId,
        turnId,
        attemptId,
        time: this.driver.now(),
        data: { message, code: 'stream', retryable: true },
      },
      { type: 'turn/interrupted', sessionId, turnId, time: this.driver.now(), data: { reason: message } },
    ]);
    this.lastEndedTurn = { turnId, completed: false, failedAttempt: attemptId };
  }

  /** The panel that drove the turn closes: the runtime interrupts it with the partial text it relayed. */
  private async ownerGone(step: StepContext, _items: StreamItem[]): Promise<void> {
    const ownerId = this.driver.newId('owner');
    this.driver.runtime.claimTurn(ownerId, step.turnId);
    await this.driver.runtime.ownerGone(ownerId, [this.sessionId], 'The side panel was closed during this turn.');
    this.lastEndedTurn = { turnId: step.turnId, completed: false };
  }

  private async endTurn(turnId: string, ending: 'stop' | 'step-cap' | 'repeated-call'): Promise<void> {
    const sessionId = this.sessionId;
    // Some turns end at a budget instead, chosen by the step count so the random sequence stays the seed's.
    const reason = ending === 'stop' && this.completedSteps % 5 === 0 ? 'budget' : ending;
    // Some turns pause at a safe point and are resumed before they end (by the step count, as above).
    if (this.completedSteps % 7 === 3) await this.pauseAndResume(turnId);
    if (this.random.chance(0.2)) {
      const commandId = this.driver.newId('command');
      await this.append([
        {
          type: 'command/state',
          sessionId,
          commandId,
          turnId,
          time: this.driver.now(),
          data: { kind: 'steer', state: 'submitted', text: this.text(2) },
        },
      ]);
      await this.append([
        {
          type: 'command/state',
          sessionId,
          commandId,
          turnId,
          time: this.driver.now(),
          data: {
            kind: 'steer',
            state: this.random.pick(['accepted', 'queued', 'applied'] as const),
            text: this.text(2),
          },
        },
      ]);
    }
    await this.append([{ type: 'turn/completed', sessionId, turnId, time: this.driver.now(), data: { reason } }]);
    this.lastEndedTurn = { turnId, completed: true };
  }

  /** Through the runtime's own commands, as the panel does: a pause taken at a safe point, then a resume. */
  private async pauseAndResume(turnId: string): Promise<void> {
    const sessionId = this.sessionId;
    const pause = this.driver.newId('command');
    await this.driver.runtime.submitCommand({ sessionId, turnId, commandId: pause, kind: 'pause' });
    await this.driver.runtime.takePause(sessionId, turnId);
    // The runtime may restart while the turn is paused: the one after it resumes the turn.
    await this.quietPoint();
    await this.driver.runtime.resumeTurn({
      sessionId,
      turnId,
      commandId: this.driver.newId('command'),
      observe: false,
    });
  }

  private async runTool(step: StepContext, tool: StreamTool): Promise<void> {
    const sessionId = this.sessionId;
    const { turnId, stepId } = step;
    const { toolCallId, toolName } = tool;
    const input = { callId: toolCallId, name: 'speed', value: this.random.int(0, 50) };
    if (this.random.chance(0.15)) {
      if (await this.deniedByApproval(step, tool)) return;
    }
    if (this.random.chance(0.1)) {
      const requestId = this.driver.newId('ask');
      await this.append([
        {
          type: 'ask/requested',
          sessionId,
          turnId,
          requestId,
          toolCallId,
          time: this.driver.now(),
          data: { question: 'Which mode?', answerSchema: { type: 'string' }, expiresAt: this.driver.now() + 60_000 },
        },
      ]);
      await this.quietPoint();
      const formAction: AgentEventDraft[] = this.random.chance(0.5)
        ? [
            {
              type: 'artifact/action',
              sessionId,
              turnId,
              requestId,
              artifactId: `form-${requestId}`,
              time: this.driver.now(),
              data: { version: 1, actionId: 'submit', payload: { mode: 'auto' } },
            },
          ]
        : [];
      await this.append([
        ...formAction,
        this.random.chance(0.7)
          ? { type: 'ask/answered', sessionId, turnId, requestId, time: this.driver.now(), data: { answer: 'auto' } }
          : {
              type: 'ask/expired',
              sessionId,
              turnId,
              requestId,
              time: this.driver.now(),
              data: { reason: 'No answer in time.' },
            },
      ]);
    }
    if (this.random.chance(0.2))
      this.driver.outcomes.set(toolCallId, { ok: false, error: 'Parameter "spd" not found; known: speed, mode' });
    const request = { turnId, stepId, toolCallId, toolName, input };
    this.requestedToolCalls.add(toolCallId);
    const mode = this.random.weighted({ once: 8, repeated: 1, concurrent: 1, crash: 1 });
    if (mode === 'crash') {
      // The background died after recording the start: a side-effecting call's outcome is unknown and it is never
      // re-run; a read-only call simply runs again, once.
      const time = this.driver.now();
      await this.append([
        { type: 'tool/requested', sessionId, turnId, stepId, toolCallId, time, data: { toolName, input } },
        { type: 'tool/started', sessionId, turnId, toolCallId, time, data: {} },
      ]);
      if (sideEffectOf(toolName) === 'side-effecting') this.crashedToolCalls.add(toolCallId);
      await this.driver.restart();
      await this.driver.executeTool(request);
      return;
    }
    await this.driver.executeTool(request);
    if (this.driver.outcomes.get(toolCallId)?.ok === false && sideEffectOf(toolName) === 'read-only')
      await this.retryFailed(turnId, toolCallId);
    if (this.random.chance(0.1)) await this.append(this.viewArtifactVersions(turnId, toolCallId));
    if (mode === 'repeated') await this.driver.executeTool(request);
    if (mode === 'concurrent') await Promise.all([this.driver.executeTool(request), this.driver.executeTool(request)]);
  }

  /** The user retries a failed read-only call (no approval to wait for): a new attempt that runs once, by its own id. */
  private async retryFailed(turnId: string, toolCallId: string): Promise<void> {
    if (!this.random.chance(0.5)) return;
    const attemptId = `${toolCallId}-attempt-2`;
    this.requestedToolCalls.add(attemptId);
    await this.driver.runtime.retryToolCall({ sessionId: this.sessionId, turnId, toolCallId, attemptId });
  }

  /** An approval bound to the call; a denial or expiry is recorded as the call's `tool/denied` and the tool never runs. */
  private async deniedByApproval(step: StepContext, tool: StreamTool): Promise<boolean> {
    const sessionId = this.sessionId;
    const { turnId, stepId } = step;
    const { toolCallId, toolName } = tool;
    const requestId = this.driver.newId('approval');
    await this.append([
      {
        type: 'approval/requested',
        sessionId,
        turnId,
        requestId,
        toolCallId,
        time: this.driver.now(),
        data: { argumentsHash: 'hash', summary: `Run ${toolName}?`, expiresAt: this.driver.now() + 60_000 },
      },
    ]);
    await this.quietPoint();
    const decision = this.random.weighted({ allow: 3, deny: 1, expire: 1 });
    if (decision === 'expire') {
      await this.append([
        {
          type: 'approval/expired',
          sessionId,
          turnId,
          requestId,
          toolCallId,
          time: this.driver.now(),
          data: { reason: 'Nobody answered.' },
        },
      ]);
    } else {
      await this.append([
        {
          type: 'approval/decided',
          sessionId,
          turnId,
          requestId,
          toolCallId,
          time: this.driver.now(),
          data: { decision, scope: 'once' },
        },
      ]);
    }
    if (decision === 'allow') return false;
    const time = this.driver.now();
    await this.append([
      { type: 'tool/requested', sessionId, turnId, stepId, toolCallId, time, data: { toolName, input: {} } },
      {
        type: 'tool/denied',
        sessionId,
        turnId,
        toolCallId,
        time,
        data: { reason: 'Denied by the user.', output: { ok: false, denied: true, error: 'Denied by the user.' } },
      },
    ]);
    return true;
  }
}
