import { useState } from 'react';
import type { ToolCallState } from '@/lib/state/client-state';

const STATUS_LABEL: Record<ToolCallState['status'], string> = {
  streaming: 'preparing',
  requested: 'queued',
  running: 'running',
  done: 'done',
  failed: 'failed',
  unknown: 'outcome unknown',
  denied: 'denied',
};

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? '';
}

export function ToolCallCard({ call }: { call: ToolCallState }) {
  const finished = call.status === 'done' || call.status === 'failed' || call.status === 'unknown' || call.status === 'denied';
  const [expanded, setExpanded] = useState(false);
  const open = !finished || expanded;
  const argumentsText = call.input !== undefined ? pretty(call.input) : call.argumentsPreview;
  return (
    <section className={`tool-card tool-${call.status}`} aria-label={`Tool call ${call.toolName}`} data-tool-call-id={call.toolCallId} data-status={call.status}>
      <button type="button" className="tool-head" aria-expanded={open} onClick={() => setExpanded(!expanded)}>
        <span className="tool-name">{call.toolName || 'tool'}</span>
        <span className="tool-status">{STATUS_LABEL[call.status]}</span>
        {call.durationMs !== undefined && <span className="tool-duration">{Math.round(call.durationMs)} ms</span>}
      </button>
      {open && (
        <div className="tool-body">
          <div className="tool-label">Arguments</div>
          <pre className="tool-arguments">{argumentsText || '{}'}</pre>
          {call.output !== undefined && (
            <>
              <div className="tool-label">{call.status === 'failed' ? 'Error' : 'Result'}</div>
              <pre className="tool-result">{pretty(call.output)}</pre>
            </>
          )}
          {call.status === 'unknown' && <p className="tool-error">{call.error}</p>}
        </div>
      )}
    </section>
  );
}
