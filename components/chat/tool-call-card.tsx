import { memo, useId, useState } from 'react';
import type { ToolCallState, ToolCallStatus } from '@/lib/state/client-state';
import {
  formatDuration,
  isToolCallFinished,
  prettyJson,
  toolArgumentsSummary,
  toolArgumentsText,
  toolCallAdjustments,
  toolCallError,
  toolCallTarget,
  toolCallTargetErrors,
  TOOL_STATUS_LABEL,
} from '@/lib/panel/tool-call-view';
import { toolCallDownloads } from '@/lib/panel/tool-call-downloads';
import { mcpAppNetworkAsk } from '@/lib/panel/mcp-app-network';
import { DownloadList } from './download-list';
import { McpAppNetworkGrants } from './mcp-app-network-grants';
import { BanIcon, CheckIcon, ChevronIcon, CrossIcon, QuestionIcon, RetryIcon, Spinner } from '../shared/icons';

function StatusIcon({ status }: { status: ToolCallStatus }) {
  if (status === 'done') return <CheckIcon />;
  if (status === 'failed') return <CrossIcon />;
  if (status === 'unknown') return <QuestionIcon />;
  if (status === 'denied') return <BanIcon />;
  return <Spinner />;
}

/** A tool call: live arguments while it is prepared and run; collapsed to one line once finished, expandable. */
export const ToolCallCard = memo(function ToolCallCard({
  call,
  onRetry,
}: {
  call: ToolCallState;
  /** Given when the call failed and may run again: the card offers Retry. */
  onRetry?: () => void;
}) {
  const finished = isToolCallFinished(call.status);
  const [expanded, setExpanded] = useState<boolean>();
  const open = expanded ?? !finished;
  const bodyId = useId();
  const target = toolCallTarget(call);
  const duration = formatDuration(call.durationMs);
  const error = toolCallError(call);
  const summary = toolArgumentsSummary(call);
  const adjustments = call.status === 'done' ? toolCallAdjustments(call.output) : undefined;
  const targetErrors = toolCallTargetErrors(call.output);
  const downloads = toolCallDownloads(call.output);
  const networkAsk = call.status === 'done' ? mcpAppNetworkAsk(call.output) : undefined;
  return (
    <section
      className={`tool-card tool-${call.status}`}
      aria-label={`Tool call ${call.toolName}`}
      data-tool-call-id={call.toolCallId}
      data-status={call.status}
    >
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setExpanded(!open)}
      >
        <span className="tool-status-icon">
          <StatusIcon status={call.status} />
        </span>
        <span className="tool-title">
          <span className="tool-name">{call.toolName || 'tool'}</span>
          {target && <span className="tool-target">{target}</span>}
        </span>
        <span className="tool-meta">
          <span className="tool-status">{TOOL_STATUS_LABEL[call.status]}</span>
          {call.attempt && <span className="tool-attempt">attempt {call.attempt}</span>}
          {duration && <span className="tool-duration">{duration}</span>}
        </span>
        <span className="tool-chevron" data-open={open}>
          <ChevronIcon />
        </span>
      </button>
      {!open && (summary || error) && (
        <div className={error ? 'tool-summary tool-summary-error' : 'tool-summary'}>{error ?? summary}</div>
      )}
      {!open && adjustments && <div className="tool-summary tool-summary-warning">{adjustments}</div>}
      {!open && targetErrors && (
        <div className="tool-summary tool-summary-error tool-target-errors">{targetErrors}</div>
      )}
      {downloads && <DownloadList downloads={downloads} />}
      {networkAsk && <McpAppNetworkGrants ask={networkAsk} />}
      {onRetry && (
        <div className="tool-retry">
          <button type="button" className="button-secondary tool-retry-button" onClick={onRetry}>
            <RetryIcon /> Retry
          </button>
        </div>
      )}
      {open && (
        <div className="tool-body" id={bodyId}>
          <div className="tool-label">Arguments</div>
          <pre className="tool-arguments">{toolArgumentsText(call) || '{}'}</pre>
          {adjustments && <p className="tool-adjusted">{adjustments}</p>}
          {targetErrors && <p className="tool-error tool-target-errors">{targetErrors}</p>}
          {error && (
            <>
              <div className="tool-label">Error</div>
              <p className="tool-error">{error}</p>
            </>
          )}
          {call.output !== undefined && (
            <>
              <div className="tool-label">{call.status === 'failed' ? 'Result (failed)' : 'Result'}</div>
              <pre className="tool-result">{prettyJson(call.output)}</pre>
            </>
          )}
        </div>
      )}
    </section>
  );
});
