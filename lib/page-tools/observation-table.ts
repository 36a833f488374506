import type { ObservationRecord } from './page-observation';

/** How many retired observation ids are remembered, to say why one is refused. */
const RETIRED_KEPT = 1000;

/**
 * The runtime's observations, by observationId: what every action is checked against. In memory only: after a
 * restart an action that quotes a forgotten observation is stale, and gets a fresh one.
 */
export class ObservationTable {
  private readonly records = new Map<string, { record: ObservationRecord; sessionId: string }>();
  private readonly retired = new Map<string, string>();

  constructor(private readonly capacity = 100) {}

  add(record: ObservationRecord, sessionId: string): void {
    this.records.delete(record.observationId);
    this.records.set(record.observationId, { record, sessionId });
    while (this.records.size > this.capacity) {
      const oldest = this.records.keys().next().value;
      if (oldest === undefined) break;
      this.records.delete(oldest);
    }
  }

  get(observationId: string): ObservationRecord | undefined {
    return this.records.get(observationId)?.record;
  }

  /** Every observation a session holds goes stale for `reason`: no action may quote one again. */
  retire(sessionId: string, reason: string): void {
    for (const [observationId, entry] of this.records) {
      if (entry.sessionId !== sessionId) continue;
      this.records.delete(observationId);
      this.retired.set(observationId, reason);
    }
    for (const observationId of this.retired.keys()) {
      if (this.retired.size <= RETIRED_KEPT) break;
      this.retired.delete(observationId);
    }
  }

  /** Why an observation no longer counts, when it was retired. */
  retiredBecause(observationId: string): string | undefined {
    return this.retired.get(observationId);
  }
}
