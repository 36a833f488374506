import { COMPACTION_REQUEST } from '../../lib/context/summarise-history';

/** Whether a request to the scripted endpoint is a compaction's summary request (it carries the fixed request line). */
export function isSummaryRequest(body: unknown): boolean {
  return JSON.stringify(body).includes(COMPACTION_REQUEST);
}
