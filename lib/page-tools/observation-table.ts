import type { ObservationRecord } from './page-observation';

/**
 * The runtime's observations, by observationId: what every action is checked against. In memory only: after a
 * restart an action that quotes a forgotten observation is stale, and gets a fresh one.
 */
export class ObservationTable {
  private readonly records = new Map<string, ObservationRecord>();

  constructor(private readonly capacity = 100) {}

  add(record: ObservationRecord): void {
    this.records.delete(record.observationId);
    this.records.set(record.observationId, record);
    while (this.records.size > this.capacity) {
      const oldest = this.records.keys().next().value;
      if (oldest === undefined) break;
      this.records.delete(oldest);
    }
  }

  get(observationId: string): ObservationRecord | undefined {
    return this.records.get(observationId);
  }
}
