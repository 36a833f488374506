import type { PageChoice } from './choose-page';
import type { PageLinkDependencies } from './page-link-dependencies';
import type { ObservationTable } from './observation-table';
import type { SpacedCalls } from './spaced-calls';

/** The model's tool call a page tool runs for. */
export interface PageCallContext {
  sessionId: string;
  toolCallId: string;
}

/** What the page tools share inside the page link: its dependencies, its observations, its spaced captures. */
export interface PageToolContext {
  dependencies: PageLinkDependencies;
  observations: ObservationTable;
  captures: SpacedCalls;
  /** The conversation's current tab while it is open, else the page in front of its panel's window. */
  choose(sessionId?: string): Promise<PageChoice>;
}
