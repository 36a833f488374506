/**
 * What the browser reports of one tab while an action runs (`PagePlatform.watchTab`): a request of the tab that
 * failed (an HTTP status of 400 or more, or a network error), a navigation of its top frame, a tab it opened.
 * Addresses arrive whole; `ActionEvidence` keeps origin and path only.
 */
export type TabActivity =
  | { kind: 'request-failed'; method: string; url: string; resourceType: string; status?: number; error?: string }
  | { kind: 'navigated'; url: string }
  | { kind: 'tab-opened'; tabId: number; url: string };
