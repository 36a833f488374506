import type { JsonObject } from '../protocol/json-value';
import type { PageConsoleError, PageEvidence } from '../protocol/page-wire';
import { originAndPath } from '../page-observation/script-source';
import type { PageFence } from './page-fence';
import type { TabActivity } from './tab-activity';

/** The most of each kind one action's evidence lists; the rest is counted in `dropped`. */
export const ACTION_EVIDENCE_LIMITS = {
  consoleErrors: 10,
  failedRequests: 10,
  dialogs: 5,
  navigations: 5,
  newTabs: 5,
} as const;

type EvidenceKind = keyof typeof ACTION_EVIDENCE_LIMITS;

const HEADINGS: Record<EvidenceKind, string> = {
  consoleErrors: 'Console errors',
  failedRequests: 'Failed requests',
  dialogs: 'Dialogs',
  navigations: 'Navigations',
  newTabs: 'New tabs',
};

const CONSOLE_LABELS: Record<PageConsoleError['kind'], string> = {
  exception: 'uncaught exception',
  rejection: 'unhandled rejection',
  console: 'console.error',
};

const LINE_LENGTH = 400;

/**
 * What one side effect changed and what went wrong while it ran, from its start until its fresh observation: the
 * page's console errors and dialogs (from each frame's main-world recorder), the tab's failed requests, its
 * navigations and the tabs it opened (from the browser). Bounded: at most `ACTION_EVIDENCE_LIMITS` lines of each
 * kind, each cut short; every line is page data and reaches the model inside the call's fence, the counts outside.
 */
export class ActionEvidence {
  private readonly lines: Record<EvidenceKind, string[]> = {
    consoleErrors: [],
    failedRequests: [],
    dialogs: [],
    navigations: [],
    newTabs: [],
  };
  private readonly counts: Record<EvidenceKind, number> = {
    consoleErrors: 0,
    failedRequests: 0,
    dialogs: 0,
    navigations: 0,
    newTabs: 0,
  };

  /** Where each opened tab's line is: the browser can report one tab twice, first without its address. */
  private readonly openedTabs = new Map<number, number>();

  constructor(private lastUrl: string) {}

  note(activity: TabActivity): void {
    switch (activity.kind) {
      case 'request-failed': {
        const outcome = activity.status === undefined ? (activity.error ?? 'network error') : String(activity.status);
        this.add(
          'failedRequests',
          `[${activity.method}] ${originAndPath(activity.url)} => ${outcome} (${activity.resourceType})`,
        );
        return;
      }
      case 'navigated':
        if (activity.url === this.lastUrl) return;
        this.add('navigations', `${this.lastUrl || '(no address)'} → ${activity.url}`);
        this.lastUrl = activity.url;
        return;
      case 'tab-opened': {
        const line = `tab ${activity.tabId}: ${activity.url ? originAndPath(activity.url) : '(no address yet)'}`;
        const index = this.openedTabs.get(activity.tabId);
        if (index === undefined) {
          this.openedTabs.set(activity.tabId, this.lines.newTabs.length);
          this.add('newTabs', line);
        } else if (activity.url && index < this.lines.newTabs.length) this.lines.newTabs[index] = line;
        return;
      }
    }
  }

  /** One frame's record; `frameLabel` names a frame other than the top one. */
  addPage(evidence: PageEvidence, frameLabel?: string): void {
    const where = frameLabel ? ` [${frameLabel}]` : '';
    for (const error of evidence.consoleErrors)
      this.add(
        'consoleErrors',
        `[${CONSOLE_LABELS[error.kind]}] ${error.message}${error.source ? ` @ ${error.source}` : ''}${where}`,
      );
    for (const dialog of evidence.dialogs) this.add('dialogs', `[${dialog.kind}] ${dialog.message}${where}`);
    this.counts.consoleErrors += evidence.droppedConsoleErrors;
    this.counts.dialogs += evidence.droppedDialogs;
  }

  /** The `evidence` field of the action's result; null when nothing happened that it records. */
  output(fence: PageFence): JsonObject | null {
    const kinds = Object.keys(HEADINGS) as EvidenceKind[];
    const total = kinds.reduce((sum, kind) => sum + this.counts[kind], 0);
    if (total === 0) return null;
    const listed = kinds.reduce((sum, kind) => sum + this.lines[kind].length, 0);
    const sections = kinds
      .filter((kind) => this.lines[kind].length > 0 || this.counts[kind] > 0)
      .map((kind) => {
        const left = this.counts[kind] - this.lines[kind].length;
        const more = left > 0 ? [`- … and ${left} more`] : [];
        return [`${HEADINGS[kind]}:`, ...this.lines[kind].map((line) => `- ${line}`), ...more].join('\n');
      });
    return { ...this.counts, dropped: total - listed, details: fence.wrap(sections.join('\n')) };
  }

  private add(kind: EvidenceKind, line: string): void {
    this.counts[kind]++;
    if (this.lines[kind].length < ACTION_EVIDENCE_LIMITS[kind]) this.lines[kind].push(line.slice(0, LINE_LENGTH));
  }
}
