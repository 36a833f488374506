import type { KeyboardEvent } from 'react';
import type { BranchPlace } from '@/lib/panel/branch-switch';
import type { Variants } from '@/lib/state/branch-tree';
import { usePanelActions } from '../shared/panel-actions';

export interface BranchSwitcherProps {
  variants: Variants;
  place: BranchPlace;
  /** No turn runs: another branch may be shown. */
  enabled: boolean;
}

const NOUN: Record<BranchPlace, string> = { message: 'message', answer: 'answer' };

/** `‹ 2/3 ›`: which of the messages (or answers) at this place is in view, and buttons to the others. */
export function BranchSwitcher({ variants, place, enabled }: BranchSwitcherProps) {
  const { showBranch } = usePanelActions();
  const { turnIds, index } = variants;
  if (turnIds.length < 2 || index < 0) return null;
  // aria-disabled rather than disabled: an end of the row stays focusable, so the arrow keys go on from it.
  const go = (to: number) => {
    const turnId = turnIds[to];
    if (enabled && turnId) showBranch(turnId, place);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'ArrowRight') go(index + 1);
    else return;
    event.preventDefault();
  };
  const noun = NOUN[place];
  return (
    <nav
      className={`branch-switcher branch-switcher-${place}`}
      aria-label={`${noun[0].toUpperCase()}${noun.slice(1)} ${index + 1} of ${turnIds.length}`}
      onKeyDown={onKeyDown}
    >
      <button
        type="button"
        className="icon-button"
        aria-label={`Previous ${noun}`}
        aria-disabled={!enabled || index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>
      <span className="branch-position">
        {index + 1}/{turnIds.length}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={`Next ${noun}`}
        aria-disabled={!enabled || index === turnIds.length - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </nav>
  );
}
