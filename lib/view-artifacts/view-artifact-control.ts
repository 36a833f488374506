import type { AgentEventDraft } from '../protocol/agent-event';
import type { ToolExecutionRequest } from '../protocol/tool-execution-request';
import type { ToolRecovery } from '../tool-family/tool-family';
import type { SessionLock } from '../session-log/session-lock';
import type { ToolOutput } from '../protocol/tool-output';
import { checkShowArtifact, type ShowArtifactRequest } from './check-show-artifact';
import type { ViewArtifactLedger, ViewArtifactRecord } from './view-artifact-ledger';
import { problemsText, type ViewProblem } from './view-problems';

export interface ViewArtifactAccess {
  lock: SessionLock;
  now(): number;
  newId(): string;
  ledger(sessionId: string): Promise<ViewArtifactLedger>;
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
}

function refused(problems: ViewProblem[]): ToolOutput {
  return {
    ok: false,
    code: 'VALIDATION_FAILED',
    error: `showArtifact was refused, nothing was shown: ${problemsText(problems)}`,
    problems: problems.map((problem) => ({ path: problem.path, message: problem.message })),
  };
}

function shown(record: { artifactId: string; version: number }, request: ShowArtifactRequest): ToolOutput {
  return { ok: true, artifactId: record.artifactId, version: record.version, kind: request.kind, title: request.title };
}

/**
 * showArtifact: checks the data against its kind, then, under the session's lock, gives it its version: a new
 * artifact is version 1; an update must name the current version as its base, else VERSION_CONFLICT and nothing
 * is written.
 */
export class ViewArtifactControl {
  constructor(private readonly access: ViewArtifactAccess) {}

  show(request: ToolExecutionRequest): Promise<ToolOutput> {
    const checked = checkShowArtifact(request.input);
    if (!checked.ok) return Promise.resolve(refused(checked.problems));
    return this.access.lock.run(request.sessionId, async () => {
      const ledger = await this.access.ledger(request.sessionId);
      const already = ledger.madeBy(request.toolCallId);
      if (already) return shown(already, checked.request);
      const update = checked.request.artifactId;
      const current = update === undefined ? undefined : ledger.get(update);
      if (update !== undefined && !current)
        return {
          ok: false,
          code: 'NOT_FOUND',
          error: `No artifact "${update}" in this conversation. Known: ${ledger.ids().join(', ') || 'none'}.`,
        };
      const conflict = current && this.conflict(current, checked.request);
      if (conflict) return conflict;
      const artifactId = current?.artifactId ?? this.access.newId();
      const version = (current?.version ?? 0) + 1;
      await this.access.commitDrafts(request.sessionId, [
        this.shownDraft(request, checked.request, artifactId, version),
      ]);
      return shown({ artifactId, version }, checked.request);
    });
  }

  /** After a restart: a call whose version is in the log is answered from it; one that wrote nothing never ran. */
  async recoverShow(request: ToolExecutionRequest): Promise<ToolRecovery> {
    const checked = checkShowArtifact(request.input);
    const made = (await this.access.ledger(request.sessionId)).madeBy(request.toolCallId);
    if (!made || !checked.ok) return { kind: 'never-reached' };
    return { kind: 'recovered', output: shown(made, checked.request) };
  }

  private conflict(current: ViewArtifactRecord, request: ShowArtifactRequest): ToolOutput | undefined {
    if (request.kind !== current.kind)
      return refused([
        { path: '/kind', message: `must stay "${current.kind}" for an update of ${current.artifactId}` },
      ]);
    if (request.baseVersion === current.version) return undefined;
    return {
      ok: false,
      code: 'VERSION_CONFLICT',
      artifactId: current.artifactId,
      currentVersion: current.version,
      error: `VERSION_CONFLICT: "${current.artifactId}" is at version ${current.version}; this update was made against version ${request.baseVersion} and was not applied. Make it again against version ${current.version}.`,
    };
  }

  private shownDraft(
    request: ToolExecutionRequest,
    checked: ShowArtifactRequest,
    artifactId: string,
    version: number,
  ): AgentEventDraft {
    return {
      type: 'artifact/shown',
      sessionId: request.sessionId,
      turnId: request.turnId,
      toolCallId: request.toolCallId,
      artifactId,
      time: this.access.now(),
      data: {
        version,
        ...(checked.baseVersion !== undefined ? { baseVersion: checked.baseVersion } : {}),
        title: checked.title,
        content: { kind: checked.kind, data: checked.data } as never,
      },
    };
  }
}
