import type { AgentEvent, AgentEventDraft } from '../protocol/agent-event';
import { argumentsHash, type ApprovalRequirement } from '../tool-family/approval-policy';
import { askQuestion, checkAnswer, storedForm } from '../tools/ask-user';
import { toolNamed } from '../tools/tool-registry';
import { answerFormAction, type FormActionRequest, type FormActionResult } from '../forms/form-answer';
import { deniedDraft, deniedOutput, expiryDrafts, type RequestBook, type RequestRecord } from './request-book';
import type { ToolExecutionRequest, ToolExecutionResult } from '../protocol/tool-execution-request';
import type { SessionLock } from '../session-log/session-lock';

/** What the human loop needs of the runtime: its clock and ids, the session lock, and the one way to write the log. */
export interface HumanLoopAccess {
  lock: SessionLock;
  now(): number;
  newId(): string;
  book(sessionId: string): Promise<RequestBook>;
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  /** The call's own lifecycle events (tool/*), without the approvals and asks that share its id. */
  toolEvents(sessionId: string, toolCallId: string): Promise<AgentEvent[]>;
  askExpiresAfterMs?(): Promise<number>;
  longPollMs?: number;
}

type GateVerdict =
  { kind: 'run' } | { kind: 'wait'; requestId: string; until: number } | { kind: 'done'; result: ToolExecutionResult };

const DEFAULT_ASK_EXPIRY_MS = 30 * 60_000;
const DEFAULT_LONG_POLL_MS = 20_000;
const CONTEXT_LOST = 'The extension restarted while this was waiting; it must be asked again.';

function deniedVerdict(reason: string): GateVerdict {
  return { kind: 'done', result: { status: 'denied', output: deniedOutput(reason), replayed: false } };
}

/** `tool/requested` for a call the log does not know yet, naming the target it acts on. */
export function requestedDraft(
  request: ToolExecutionRequest,
  recorded: AgentEvent[],
  time: number,
  targetId?: string,
): AgentEventDraft[] {
  if (recorded.some((event) => event.type === 'tool/requested')) return [];
  const { sessionId, turnId, stepId, toolCallId, toolName, input } = request;
  return [
    {
      type: 'tool/requested',
      sessionId,
      turnId,
      stepId,
      toolCallId,
      time,
      data: { toolName, input, ...(targetId ? { targetId } : {}) },
    },
  ];
}

/**
 * Approvals, questions, steers and cancels: each decided under the session lock from what the log says,
 * so exactly one answer counts and nothing is assumed after a restart.
 */
export class HumanLoop {
  constructor(private readonly access: HumanLoopAccess) {}

  /**
   * Whether a call may run now. Undefined: run it. Otherwise its result: denied, answered (askUser) or
   * still `waiting` for the user after one bounded wait.
   */
  gate(request: ToolExecutionRequest, requirement: ApprovalRequirement): Promise<ToolExecutionResult | undefined> {
    if (toolNamed(request.toolName)?.runsOn === 'user') return this.waitForUser(request, () => this.askStep(request));
    if (!requirement.required) return Promise.resolve(undefined);
    return argumentsHash(request.toolName, request.input).then((hash) =>
      this.waitForUser(request, () => this.approvalStep(request, requirement, hash)),
    );
  }

  /** Runs one decision step; when it says to wait, waits for the answer (bounded) and decides once more. */
  private async waitForUser(
    request: ToolExecutionRequest,
    step: () => Promise<GateVerdict>,
  ): Promise<ToolExecutionResult | undefined> {
    let verdict = await this.access.lock.run(request.sessionId, step);
    if (verdict.kind === 'wait') {
      const book = await this.access.book(request.sessionId);
      const longPoll = this.access.longPollMs ?? DEFAULT_LONG_POLL_MS;
      await book.waitFor(verdict.requestId, Math.min(longPoll, verdict.until - this.access.now() + 1));
      verdict = await this.access.lock.run(request.sessionId, step);
    }
    if (verdict.kind === 'wait')
      return { status: 'waiting', requestId: verdict.requestId, output: null, replayed: false };
    return verdict.kind === 'done' ? verdict.result : undefined;
  }

  /** Decides whether an approval-bound call may run now: allowed, denied, expired, or still waiting (asking if nobody was asked). */
  private async approvalStep(
    request: ToolExecutionRequest,
    requirement: Extract<ApprovalRequirement, { required: true }>,
    hash: string,
  ): Promise<GateVerdict> {
    const { sessionId, turnId, toolCallId } = request;
    const book = await this.access.book(sessionId);
    const recorded = await this.access.toolEvents(sessionId, toolCallId);
    if (recorded.some((event) => event.type !== 'tool/requested')) return { kind: 'run' };
    if (requirement.targetId && book.grants.has(requirement.targetId)) return { kind: 'run' };
    const now = this.access.now();
    const latest = book.latestFor(toolCallId);
    if (latest?.status === 'allowed' && latest.argumentsHash === hash) return { kind: 'run' };
    if (latest?.status === 'denied')
      return this.denied(sessionId, turnId, toolCallId, 'Not run: the user denied this call.');
    if (latest?.status === 'expired' && latest.cause !== 'context-lost')
      return this.denied(sessionId, turnId, toolCallId, 'Not run: the approval request expired.');
    if (latest?.status === 'pending') {
      if (!book.isLive(latest.requestId)) {
        await this.access.commitDrafts(sessionId, expiryDrafts(sessionId, latest, now, 'context-lost', CONTEXT_LOST));
      } else if (now >= (latest.expiresAt ?? Infinity)) {
        await this.access.commitDrafts(
          sessionId,
          expiryDrafts(sessionId, latest, now, 'timeout', 'nobody answered in time.'),
        );
        return deniedVerdict('Not run: the approval request expired.');
      } else {
        return { kind: 'wait', requestId: latest.requestId, until: latest.expiresAt ?? now + DEFAULT_LONG_POLL_MS };
      }
    }
    if (!book.isTurnOpen(turnId)) return this.denied(sessionId, turnId, toolCallId, 'Not run: the turn has ended.');
    const requestId = this.access.newId();
    const expiresAt = now + requirement.expiresAfterMs;
    await this.access.commitDrafts(sessionId, [
      ...requestedDraft(request, recorded, now, requirement.targetId),
      {
        type: 'approval/requested',
        sessionId,
        turnId,
        requestId,
        toolCallId,
        time: now,
        data: {
          argumentsHash: hash,
          summary: requirement.summary,
          expiresAt,
          toolName: request.toolName,
          ...(requirement.targetId ? { targetId: requirement.targetId } : {}),
          ...(requirement.siteOrigin ? { siteOrigin: requirement.siteOrigin } : {}),
          ...(requirement.images?.length ? { images: requirement.images } : {}),
        },
      },
    ]);
    book.markLive(requestId);
    return { kind: 'wait', requestId, until: expiresAt };
  }

  private async denied(sessionId: string, turnId: string, toolCallId: string, reason: string): Promise<GateVerdict> {
    const recorded = (await this.access.toolEvents(sessionId, toolCallId)).find(
      (event) => event.type === 'tool/denied',
    );
    if (recorded?.type === 'tool/denied') return deniedVerdict(recorded.data.reason);
    await this.access.commitDrafts(sessionId, [deniedDraft(sessionId, turnId, toolCallId, this.access.now(), reason)]);
    return deniedVerdict(reason);
  }

  /** The askUser tool: asks once, waits for an answer checked against the question's schema, never fills one in. */
  private async askStep(request: ToolExecutionRequest): Promise<GateVerdict> {
    const { sessionId, turnId, toolCallId } = request;
    const book = await this.access.book(sessionId);
    const recorded = await this.access.toolEvents(sessionId, toolCallId);
    const outcome = recorded.find((event) => event.type === 'tool/completed' || event.type === 'tool/failed');
    if (outcome?.type === 'tool/completed')
      return { kind: 'done', result: { status: 'completed', output: outcome.data.output, replayed: true } };
    if (outcome?.type === 'tool/failed')
      return { kind: 'done', result: { status: 'failed', output: outcome.data.output, replayed: true } };
    const now = this.access.now();
    const latest = book.latestFor(toolCallId);
    if (latest?.status === 'answered') {
      const output = { ok: true, answer: latest.answer ?? null };
      await this.access.commitDrafts(sessionId, [
        { type: 'tool/completed', sessionId, turnId, toolCallId, time: now, data: { output, durationMs: 0 } },
      ]);
      return { kind: 'done', result: { status: 'completed', output, replayed: false } };
    }
    if (latest?.status === 'pending') {
      if (now < (latest.expiresAt ?? Infinity))
        return { kind: 'wait', requestId: latest.requestId, until: latest.expiresAt ?? now + DEFAULT_LONG_POLL_MS };
      await this.access.commitDrafts(
        sessionId,
        expiryDrafts(sessionId, latest, now, 'timeout', 'nobody answered in time.'),
      );
      return this.askSettled(sessionId, toolCallId);
    }
    if (latest) return this.askSettled(sessionId, toolCallId);
    const question = askQuestion(request.input);
    if (!question.ok) {
      const output = {
        ok: false,
        error: question.error,
        ...(question.problems ? { problems: question.problems } : {}),
      };
      await this.access.commitDrafts(sessionId, [
        ...requestedDraft(request, recorded, now),
        {
          type: 'tool/failed',
          sessionId,
          turnId,
          toolCallId,
          time: now,
          data: { error: question.error, output, durationMs: 0 },
        },
      ]);
      return { kind: 'done', result: { status: 'failed', output, replayed: false } };
    }
    if (!book.isTurnOpen(turnId))
      return {
        kind: 'done',
        result: { status: 'failed', output: { ok: false, error: 'The turn has ended.' }, replayed: false },
      };
    const requestId = this.access.newId();
    const expiresAt = now + ((await this.access.askExpiresAfterMs?.()) ?? DEFAULT_ASK_EXPIRY_MS);
    await this.access.commitDrafts(sessionId, [
      ...requestedDraft(request, recorded, now),
      { type: 'tool/started', sessionId, turnId, toolCallId, time: now, data: {} },
      {
        type: 'ask/requested',
        sessionId,
        turnId,
        requestId,
        toolCallId,
        time: now,
        data: {
          question: question.question,
          answerSchema: 'form' in question ? storedForm(question.form, this.access.newId()) : question.answerSchema,
          expiresAt,
        },
      },
    ]);
    return { kind: 'wait', requestId, until: expiresAt };
  }

  private async askSettled(sessionId: string, toolCallId: string): Promise<GateVerdict> {
    const outcome = (await this.access.toolEvents(sessionId, toolCallId)).find((event) => event.type === 'tool/failed');
    const output = outcome?.type === 'tool/failed' ? outcome.data.output : { ok: false, error: 'Not answered.' };
    return { kind: 'done', result: { status: 'failed', output, replayed: true } };
  }

  /** Records the user's decision on an approval; only the first valid one counts, and only while the request can still be answered. */
  decideApproval(decision: {
    sessionId: string;
    turnId: string;
    toolCallId: string;
    requestId: string;
    decision: 'allow' | 'deny';
    scope?: 'once' | 'target-session';
  }): Promise<{ accepted: boolean; status: string }> {
    const { sessionId, turnId, toolCallId, requestId } = decision;
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      const request = book.requests.get(requestId);
      if (!request || request.kind !== 'approval' || request.turnId !== turnId || request.toolCallId !== toolCallId)
        throw new Error('No such approval request in this conversation.');
      const settled = await this.settleIfStale(sessionId, book, request);
      if (settled) return { accepted: false, status: settled };
      const now = this.access.now();
      await this.access.commitDrafts(sessionId, [
        {
          type: 'approval/decided',
          sessionId,
          turnId,
          requestId,
          toolCallId,
          time: now,
          data: { decision: decision.decision, scope: decision.scope ?? 'once' },
        },
        ...(decision.decision === 'deny'
          ? [deniedDraft(sessionId, turnId, toolCallId, now, 'Not run: the user denied this call.')]
          : []),
      ]);
      return { accepted: true, status: decision.decision === 'allow' ? 'allowed' : 'denied' };
    });
  }

  /** Records the user's answer to a question after checking it against the question's schema. */
  answerAsk(answer: {
    sessionId: string;
    turnId: string;
    requestId: string;
    answer: unknown;
  }): Promise<{ accepted: boolean; status: string; error?: string }> {
    const { sessionId, turnId, requestId } = answer;
    return this.access.lock.run(sessionId, async () => {
      const book = await this.access.book(sessionId);
      const request = book.requests.get(requestId);
      if (!request || request.kind !== 'ask' || request.turnId !== turnId)
        throw new Error('No such question in this conversation.');
      const settled = await this.settleIfStale(sessionId, book, request);
      if (settled) return { accepted: false, status: settled };
      const checked = checkAnswer(request.answerSchema ?? null, answer.answer);
      if (!checked.ok) return { accepted: false, status: 'pending', error: checked.error };
      await this.access.commitDrafts(sessionId, [
        {
          type: 'ask/answered',
          sessionId,
          turnId,
          requestId,
          time: this.access.now(),
          data: { answer: checked.value },
        },
      ]);
      return { accepted: true, status: 'answered' };
    });
  }

  /** Records a form's submission (`artifact/action`) and the answer it becomes, once the runtime has checked it. */
  answerForm(action: FormActionRequest): Promise<FormActionResult> {
    return this.access.lock.run(action.sessionId, async () => {
      const book = await this.access.book(action.sessionId);
      const request = book.requests.get(action.requestId);
      if (!request || request.kind !== 'ask' || request.turnId !== action.turnId)
        throw new Error('No such question in this conversation.');
      const settled = await this.settleIfStale(action.sessionId, book, request);
      if (settled) return { accepted: false, status: settled };
      return answerFormAction(action, request.answerSchema ?? null, this.access);
    });
  }

  /** The state a request is already in when it can no longer take an answer (recording the expiry this discovers), or undefined if it can. */
  private async settleIfStale(
    sessionId: string,
    book: RequestBook,
    request: RequestRecord,
  ): Promise<string | undefined> {
    if (request.status !== 'pending') return request.status;
    const now = this.access.now();
    let expiry: ['timeout' | 'turn-ended' | 'context-lost', string] | undefined;
    if (!book.isTurnOpen(request.turnId)) expiry = ['turn-ended', 'The turn has ended.'];
    else if (now >= (request.expiresAt ?? Infinity)) expiry = ['timeout', 'nobody answered in time.'];
    else if (request.kind === 'approval' && !book.isLive(request.requestId)) expiry = ['context-lost', CONTEXT_LOST];
    if (!expiry) return undefined;
    await this.access.commitDrafts(sessionId, expiryDrafts(sessionId, request, now, expiry[0], expiry[1]));
    return 'expired';
  }
}
