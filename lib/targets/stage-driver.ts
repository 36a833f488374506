import type { JsonObject } from '../protocol/json-value';
import type { CatalogEntry } from '../protocol/target-catalog';
import type { StageCommand } from '../protocol/target-wire';

/** What the tool router needs from the stage; the background wires it to the stage tab. */
export interface StageDriver {
  /** Opens (or re-uses) the stage tab, loads the target and resolves with its state once it is ready. */
  open(entry: CatalogEntry): Promise<JsonObject>;
  /** Sends one command to the active target and resolves with the state it applied. */
  send(targetId: string, command: StageCommand): Promise<JsonObject>;
  /** The target the stage shows now, if any. */
  activeTargetId(): Promise<string | undefined>;
  /** Errors the target reported on its own (uncaught in its frame) since they were last taken; each is handed out once. */
  takeTargetErrors?(targetId: string): string[];
}
