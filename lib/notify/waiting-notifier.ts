import type { AgentEvent } from '../protocol/agent-event';
import type { PanelVisibility } from './panel-visibility';
import { waitingNotice, type WaitingNotice } from './waiting-notice';

export interface WaitingNotifierDependencies {
  visibility: Pick<PanelVisibility, 'isShownVisibly'>;
  /** The options-page switch "browser notifications". */
  switchedOn(): Promise<boolean>;
  /** Whether the optional `notifications` permission is granted. */
  permitted(): Promise<boolean>;
  conversationTitle(sessionId: string): Promise<string>;
  show(notice: WaitingNotice): Promise<void>;
}

/** Ids already shown are kept up to this many; the ids are stable, so the browser replaces, never doubles, one. */
const REMEMBERED = 500;

/**
 * Shows a browser notification when a turn needs the user (an approval or a question) or ends while no visible
 * side panel shows its conversation. Called with each event as the runtime records it, never for replays.
 */
export class WaitingNotifier {
  private readonly shown = new Set<string>();

  constructor(private readonly dependencies: WaitingNotifierDependencies) {}

  /** Resolves to the notice shown, if any (tests read it; the runtime does not wait for it). */
  async recorded(event: AgentEvent): Promise<WaitingNotice | undefined> {
    const { dependencies } = this;
    const draft = waitingNotice(event, '');
    if (!draft || this.shown.has(draft.notificationId)) return undefined;
    if (dependencies.visibility.isShownVisibly(event.sessionId)) return undefined;
    if (!(await dependencies.switchedOn()) || !(await dependencies.permitted())) return undefined;
    // Checked again: the claim must come before any later await, or two deliveries could both pass.
    if (this.shown.has(draft.notificationId)) return undefined;
    this.remember(draft.notificationId);
    const notice = waitingNotice(event, await dependencies.conversationTitle(event.sessionId).catch(() => ''))!;
    await dependencies.show(notice);
    return notice;
  }

  private remember(notificationId: string): void {
    this.shown.add(notificationId);
    if (this.shown.size > REMEMBERED) this.shown.delete(this.shown.values().next().value!);
  }
}
