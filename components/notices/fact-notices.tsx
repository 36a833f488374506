import type { FactNotice } from '@/lib/state/client-state';
import { usePanelActions } from '../shared/panel-actions';
import { CrossIcon } from '../shared/icons';

export interface FactNoticesProps {
  facts: readonly FactNotice[];
}

const KIND_LABEL: Record<FactNotice['type'], string> = {
  'notify/job-finished': 'Job',
  'notify/budget-reached': 'Budget',
  'notify/security-warning': 'Security',
  'notify/access-revoked': 'Site access',
};

/** Fact notifications from the log, shown where they happened; reading one changes nothing the runtime may do. */
export function FactNotices({ facts }: FactNoticesProps) {
  const { dismissFact } = usePanelActions();
  if (facts.length === 0) return null;
  return (
    <>
      {facts.map((fact) => (
        <div
          key={fact.notificationId}
          className={`notice fact-notice notice-${fact.level}`}
          role="status"
          data-notification-id={fact.notificationId}
          data-fact={fact.type}
          {...(fact.reference.kind === 'budget' ? { 'data-budget': fact.reference.budget } : {})}
        >
          <span className="fact-text">
            <strong className="fact-kind">{KIND_LABEL[fact.type]}</strong> {fact.message}
          </span>
          <button
            type="button"
            className="icon-button fact-dismiss"
            aria-label="Dismiss notice"
            onClick={() => dismissFact(fact.notificationId)}
          >
            <CrossIcon />
          </button>
        </div>
      ))}
    </>
  );
}
