import { siteLabel } from '@/lib/page-tools/choose-page';

export interface SiteAccessEntry {
  origin: string;
  mode: 'ask' | 'allow';
}

export interface SiteAccessListProps {
  sites: SiteAccessEntry[] | undefined;
  onModeChange(origin: string, mode: 'ask' | 'allow'): void;
  onRevoke(origin: string): void;
}

/** The sites Splitbrain holds access to, how it may act on each, and a way to take the access back. */
export function SiteAccessList({ sites, onModeChange, onRevoke }: SiteAccessListProps) {
  if (!sites) return null;
  if (sites.length === 0)
    return <p className="site-access-empty">No sites yet: the panel asks the first time the model needs one.</p>;
  return (
    <ul className="site-access-list" aria-label="Sites with access">
      {sites.map((site) => (
        <li key={site.origin} className="site-access-item" data-origin={site.origin}>
          <span className="site-access-origin">{siteLabel(site.origin)}</span>
          <select
            aria-label={`How Splitbrain acts on ${siteLabel(site.origin)}`}
            value={site.mode}
            onChange={(event) => onModeChange(site.origin, event.target.value === 'allow' ? 'allow' : 'ask')}
          >
            <option value="ask">Ask before acting</option>
            <option value="allow">Act without asking</option>
          </select>
          <button type="button" className="link-button" onClick={() => onRevoke(site.origin)}>
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}
