import { remainingText, settledText } from '@/lib/panel/request-view';
import type { RequestState } from '@/lib/state/client-state';
import { MessageAttachments } from '../files/attachment-preview';
import { usePanelActions, type DecisionScope } from '../shared/panel-actions';
import { useNow } from '../shared/use-now';
import { useRuntimeAction } from '../shared/use-runtime-action';

/** Asks the user to allow or deny one tool call; nothing runs without "Allow". */
export function ApprovalCard({ request }: { request: RequestState }) {
  const actions = usePanelActions();
  const { sending, error, run } = useRuntimeAction();
  const pending = request.status === 'pending';
  const remaining = remainingText(request.expiresAt, useNow(pending));
  const decide = (decision: 'allow' | 'deny', scope: DecisionScope) =>
    run(() => actions.decide(request, decision, scope));
  return (
    <section
      className="request-card approval-card"
      data-request-id={request.requestId}
      data-status={request.status}
      aria-label="Approval needed"
    >
      <p className="request-title">
        {request.siteOrigin ? 'Site access' : pending ? 'Allow this action?' : 'Approval'}
      </p>
      <p className="request-summary">{request.summary}</p>
      {request.images && <MessageAttachments blobs={request.images} />}
      {pending ? (
        <>
          <div className="request-actions">
            <button type="button" className="button-primary" disabled={sending} onClick={() => decide('allow', 'once')}>
              Allow
            </button>
            <button
              type="button"
              className="button-secondary"
              disabled={sending}
              onClick={() => decide('deny', 'once')}
            >
              Deny
            </button>
            {request.targetId && (
              <button
                type="button"
                className="link-button"
                disabled={sending}
                onClick={() => decide('allow', 'target-session')}
              >
                Allow for this target in this session
              </button>
            )}
          </div>
          {remaining && <p className="request-meta">Expires in {remaining}; denied if nobody answers.</p>}
        </>
      ) : (
        <p className="request-meta" data-settled={request.status}>
          {settledText(request)}
        </p>
      )}
      {error && (
        <p className="request-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
