import { relevantFacts } from './apply-notify-event';
import type { FactNotice } from './client-state';

/** The relevant fact notifications by the turn they refer to; '' holds those of no turn (a job, a site). */
export function groupFactsByTurn(facts: Readonly<Record<string, FactNotice>>): Map<string, FactNotice[]> {
  const groups = new Map<string, FactNotice[]>();
  for (const fact of relevantFacts(facts)) {
    const key = fact.turnId ?? '';
    groups.set(key, [...(groups.get(key) ?? []), fact]);
  }
  return groups;
}
