import type { CurrentPageView } from '@/lib/protocol/current-page';
import { siteLabel } from '@/lib/page-tools/choose-page';
import { usePanelActions } from '../shared/panel-actions';

/** One line above the composer: the page the model's page tools would act on, and how they may act there. */
export function PageLine({ page }: { page: CurrentPageView | undefined }) {
  const { setPageMode } = usePanelActions();
  if (!page) return null;
  if (!page.ok)
    return (
      <div className="page-line" data-state="none" aria-label="Page">
        <span className="page-line-reason">{page.reason}</span>
      </div>
    );
  return (
    <div className="page-line" data-state={page.access ? 'granted' : 'not-granted'} aria-label="Page">
      <span className="page-line-title" title={page.url}>
        {page.title || page.url}
      </span>
      <span className="page-line-origin">{siteLabel(page.origin)}</span>
      {page.access ? (
        <select
          className="page-line-mode"
          aria-label={`How Splitbrain acts on ${siteLabel(page.origin)}`}
          value={page.mode}
          onChange={(event) => setPageMode(page.origin, event.target.value === 'allow' ? 'allow' : 'ask')}
        >
          <option value="ask">Ask before acting</option>
          <option value="allow">Act without asking</option>
        </select>
      ) : (
        <span className="page-line-access">not allowed yet</span>
      )}
    </div>
  );
}
