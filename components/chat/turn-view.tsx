import { memo, useMemo, useState } from 'react';
import { requestsByToolCall } from '@/lib/panel/request-view';
import { canRetryToolCall, failedStepOf } from '@/lib/panel/turn-request';
import { answerVariants, messageVariants } from '@/lib/state/branch-tree';
import {
  itemOf,
  type AppContextView,
  type BranchTree,
  type CommandState,
  type ItemState,
  type RequestState,
  type ToolCallState,
  type TurnState,
} from '@/lib/state/client-state';
import { ApprovalCard } from '../approvals/approval-card';
import { AskCard } from '../approvals/ask-card';
import { AssistantItem } from './assistant-item';
import { BranchSwitcher } from './branch-switcher';
import { JobCard } from '../jobs/job-card';
import type { JobView } from '@/lib/state/job-view';
import { RetryIcon } from '../shared/icons';
import { RetryNotice } from './retry-notice';
import { RewindDialog } from './rewind-dialog';
import { SteerMessage } from './steer-message';
import { ToolCallCard } from './tool-call-card';
import { TurnError } from './turn-error';
import { UsageLine } from '../usage/usage-line';
import { UserMessage } from './user-message';
import { ViewArtifactCard } from '../artifacts/view-artifact-card';
import { shownArtifactOf } from '@/lib/view-artifacts/shown-artifact-of';
import { MessageAttachments } from '../files/attachment-preview';
import { usePanelActions } from '../shared/panel-actions';
import { AppContextNotes } from './app-context-notes';
import { turnAppContexts } from '@/lib/state/app-contexts';

export interface TurnViewProps {
  turn: TurnState;
  items: Record<string, ItemState>;
  streaming: Record<string, ItemState>;
  toolCalls: Record<string, ToolCallState>;
  requests: Record<string, RequestState>;
  commands: Record<string, CommandState>;
  jobs?: Record<string, JobView>;
  /** This is the last turn and no turn runs: it may be retried. */
  canRetry: boolean;
  /** No turn runs: a message may be edited and resent. */
  canEdit: boolean;
  /** A later turn retried this one. */
  superseded: boolean;
  /** The conversation's branches: the switchers on the message and the answer read them. */
  branches: BranchTree;
  /** What MCP Apps told the model, by contextId: the message shows those it carried. */
  appContexts?: Record<string, AppContextView>;
}

const ENDED_LABEL: Partial<Record<TurnState['status'], string>> = {
  aborted: 'Stopped',
  interrupted: 'Interrupted',
  paused: 'Paused',
};

export const TurnView = memo(function TurnView({
  turn,
  items,
  streaming,
  toolCalls,
  requests,
  commands,
  jobs,
  canRetry,
  canEdit,
  superseded,
  branches,
  appContexts,
}: TurnViewProps) {
  const { retry, retryStep, resend, regenerate, fork, retryToolCall, openTimeline } = usePanelActions();
  const [rewinding, setRewinding] = useState(false);
  const retried = turn.retriesToolCall ? toolCalls[turn.retriesToolCall] : undefined;
  const answered = turn.status !== 'running' && turn.status !== 'paused';
  const retryable = canRetry && (turn.status === 'interrupted' || turn.status === 'aborted');
  const failedStep = canRetry ? failedStepOf({ turns: { [turn.turnId]: turn } }, turn.turnId) : undefined;
  const ended =
    turn.status === 'completed' && turn.reason === 'budget' ? 'Stopped: budget reached' : ENDED_LABEL[turn.status];
  const requestsOfCall = useMemo(() => requestsByToolCall(requests, turn.turnId), [requests, turn.turnId]);
  return (
    <article
      className={`turn${superseded ? ' turn-superseded' : ''}`}
      data-turn-id={turn.turnId}
      data-status={turn.status}
      aria-label={superseded ? 'Earlier attempt' : undefined}
    >
      {turn.retryOf && <div className="turn-note">Retry of the attempt above</div>}
      {turn.retriesToolCall ? (
        <div className="turn-note retry-turn-note">You ran {retried?.toolName ?? 'a tool call'} again</div>
      ) : turn.retriesStep ? (
        <div className="turn-note retry-step-note">You retried the failed model request: the steps above stand</div>
      ) : (
        <UserMessage text={turn.userText} canEdit={canEdit} onResend={(text) => resend(text, turn.turnId)} />
      )}
      <BranchSwitcher variants={messageVariants(branches, turn.turnId)} place="message" enabled={canEdit} />
      {turn.attachments && <MessageAttachments blobs={turn.attachments.map((attachment) => attachment.blob)} />}
      {turn.appContextIds && <AppContextNotes contexts={turnAppContexts({ appContexts }, turn)} />}
      {turn.entries.map((entry) => {
        if (entry.kind === 'tool') {
          const call = toolCalls[entry.toolCallId];
          if (!call) return null;
          const shown = shownArtifactOf(call);
          return (
            <div key={entry.toolCallId} className="tool-entry">
              <ToolCallCard
                call={call}
                {...(canEdit && canRetryToolCall({ toolCalls }, call.toolCallId)
                  ? { onRetry: () => retryToolCall(call.toolCallId) }
                  : {})}
              />
              {shown && <ViewArtifactCard artifactId={shown.artifactId} version={shown.version} />}
              {Object.values(jobs ?? {})
                .filter((job) => job.toolCallId === entry.toolCallId)
                .map((job) => (
                  <JobCard key={job.jobId} job={job} />
                ))}
              {(requestsOfCall.get(entry.toolCallId) ?? []).map((request) =>
                request.kind === 'approval' ? (
                  <ApprovalCard key={request.requestId} request={request} />
                ) : (
                  <AskCard key={request.requestId} request={request} />
                ),
              )}
            </div>
          );
        }
        if (entry.kind === 'command') {
          const command = commands[entry.commandId];
          if (command?.kind === 'resume')
            return (
              <p key={entry.commandId} className="resume-line" data-command-id={entry.commandId}>
                Paused, then resumed: the model was told you acted and was shown the page as it is now.
              </p>
            );
          return command ? <SteerMessage key={entry.commandId} command={command} /> : null;
        }
        if (entry.kind === 'error') {
          const error = turn.errors[entry.index];
          if (!error) return null;
          const last = failedStep && entry === turn.entries.at(-1);
          return (
            <TurnError
              key={`error-${entry.index}`}
              message={error.message}
              {...(last ? { onRetryStep: () => retryStep(turn.turnId) } : {})}
            />
          );
        }
        const item = itemOf({ items, streaming }, entry.key);
        return item && item.text ? <AssistantItem key={entry.key} item={item} /> : null;
      })}
      {turn.status === 'running' && turn.retry && <RetryNotice retry={turn.retry} />}
      <UsageLine
        usage={turn.usage}
        usageByModel={turn.usageByModel}
        className="turn-usage"
        label="Tokens used by this turn"
      />
      {answered && (
        <div className="answer-bar">
          <BranchSwitcher variants={answerVariants(branches, turn.turnId)} place="answer" enabled={canEdit} />
          {canEdit && (
            <button
              type="button"
              className="button-quiet regenerate-button"
              aria-label="Regenerate the answer"
              onClick={() => regenerate(turn.turnId)}
            >
              <RetryIcon /> Regenerate
            </button>
          )}
          {canEdit && (
            <button
              type="button"
              className="button-quiet regenerate-button"
              aria-label="Fork from here"
              title="A new conversation with the history up to here"
              onClick={() => fork(turn.turnId)}
            >
              Fork
            </button>
          )}
          {canEdit && (
            <button
              type="button"
              className="button-quiet regenerate-button"
              aria-label="Rewind to this message"
              title="Go back to just before this message, choosing what to restore"
              onClick={() => setRewinding(true)}
            >
              Rewind
            </button>
          )}
          <button
            type="button"
            className="button-quiet regenerate-button"
            aria-label="Timeline of this turn"
            onClick={() => openTimeline(turn.turnId)}
          >
            Timeline
          </button>
        </div>
      )}
      {rewinding && <RewindDialog turnId={turn.turnId} onClose={() => setRewinding(false)} />}
      {(ended || retryable) && (
        <div className="turn-footer">
          {ended && (
            <span className="turn-status" data-turn-status={turn.status}>
              {ended}
              {turn.reason && turn.status === 'interrupted' && turn.errors.length === 0 ? ` — ${turn.reason}` : ''}
              {superseded ? ' · retried below' : ''}
            </span>
          )}
          {retryable && (
            <button
              type="button"
              className="button-secondary retry-button"
              title="Send your message again as a new turn; the steps this turn took are left out"
              onClick={() => retry(turn.turnId)}
            >
              <RetryIcon /> Retry message
            </button>
          )}
        </div>
      )}
    </article>
  );
}, sameTurnView);

/** A turn re-renders only when its own records change, not when a delta lands in another turn. */
function sameTurnView(previous: TurnViewProps, next: TurnViewProps): boolean {
  if (previous.requests !== next.requests || previous.commands !== next.commands) return false;
  if (previous.jobs !== next.jobs) return false;
  if (
    previous.turn !== next.turn ||
    previous.canRetry !== next.canRetry ||
    previous.canEdit !== next.canEdit ||
    previous.superseded !== next.superseded ||
    previous.branches !== next.branches
  )
    return false;
  return next.turn.entries.every((entry) =>
    entry.kind === 'item'
      ? itemOf(previous, entry.key) === itemOf(next, entry.key)
      : entry.kind === 'tool'
        ? previous.toolCalls[entry.toolCallId] === next.toolCalls[entry.toolCallId]
        : true,
  );
}
