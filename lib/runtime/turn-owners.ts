/** Notified when a cancel command targets a turn this owner drives. */
export type OwnerListener = (command: { turnId: string; commandId: string }) => void;

/** Which client (a side panel's connection) drives which turns, and how to reach it. */
export class TurnOwners {
  private readonly turnsOf = new Map<string, Set<string>>();
  private readonly listeners = new Map<string, OwnerListener>();

  register(ownerId: string, listener: OwnerListener): void {
    this.listeners.set(ownerId, listener);
  }

  claim(ownerId: string, turnId: string): void {
    const turns = this.turnsOf.get(ownerId) ?? new Set<string>();
    turns.add(turnId);
    this.turnsOf.set(ownerId, turns);
  }

  release(ownerId: string, turnId: string): void {
    this.turnsOf.get(ownerId)?.delete(turnId);
  }

  /** Forgets an owner that went away and returns the turns it still drove. */
  remove(ownerId: string): Set<string> {
    const turns = this.turnsOf.get(ownerId) ?? new Set<string>();
    this.turnsOf.delete(ownerId);
    this.listeners.delete(ownerId);
    return turns;
  }

  /** How to reach the driver of a turn, if it has one. */
  listenerFor(turnId: string): OwnerListener | undefined {
    const owner = [...this.turnsOf].find(([, turns]) => turns.has(turnId))?.[0];
    return owner ? this.listeners.get(owner) : undefined;
  }

  isOwned(turnId: string): boolean {
    return [...this.turnsOf.values()].some((turns) => turns.has(turnId));
  }
}
