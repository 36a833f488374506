import type { TargetListItem } from '@/lib/popup/target-list-items';
import { AuthoredTargetControls, type AuthoredTargetAction } from './authored-target-controls';

export interface TargetListProps {
  items: TargetListItem[];
  /** The target being opened, while its request runs. */
  opening?: string;
  onOpen(targetId: string): void;
  onRemove(targetId: string): void;
  onAuthoredAction?(action: AuthoredTargetAction): void;
}

export function TargetList({ items, opening, onOpen, onRemove, onAuthoredAction }: TargetListProps) {
  return (
    <ul className="target-list" aria-label="Targets">
      {items.map((item) => (
        <li key={item.id} className={`target-item${item.active ? ' target-active' : ''}`} data-target-id={item.id}>
          <button
            type="button"
            className="target-open"
            aria-current={item.active ? 'true' : undefined}
            aria-describedby={`target-${item.id}-description`}
            disabled={opening !== undefined}
            onClick={() => onOpen(item.id)}
          >
            <span className="target-marker" aria-hidden="true" />
            <span className="target-text">
              <span className="target-title">
                {item.title}
                {item.active && <span className="pill pill-active">Active</span>}
                {opening === item.id && <span className="pill">Opening…</span>}
                {item.authored && (
                  <span className="pill authored-badge">Made in this conversation · v{item.authored.version}</span>
                )}
              </span>
              <span className="target-description" id={`target-${item.id}-description`} title={item.description}>
                {item.origin && <span className="target-origin">{item.origin} · </span>}
                {item.description}
              </span>
            </span>
          </button>
          {item.origin && (
            <button
              type="button"
              className="target-remove"
              aria-label={`Remove ${item.title}`}
              onClick={() => onRemove(item.id)}
            >
              Remove
            </button>
          )}
          {item.authored && onAuthoredAction && (
            <AuthoredTargetControls info={item.authored} onAction={onAuthoredAction} />
          )}
        </li>
      ))}
    </ul>
  );
}
