import type { JsonObject } from '../protocol/json-value';
import type { StageReportMessage } from '../protocol/runtime-message';

export type StageHello = Extract<StageReportMessage, { type: 'stage/hello' }>;
type RecentCall = StageHello['recent'][number];

/** What the stage shows now, as its hello tells the runtime. */
export interface ShownTarget {
  targetId: string;
  preview: boolean;
  isApp: boolean;
}

const MAX_RECENT = 100;
const MAX_RECEIVED = 1000;

/**
 * What this stage did for recent tool calls and which calls it received a command for, sent with every hello so a
 * restarted runtime learns their outcome.
 */
export class StageCallRecord {
  private readonly recent: RecentCall[] = [];
  private readonly received: string[] = [];

  constructor(private readonly startedAt: number) {}

  get receivedCount(): number {
    return this.received.length;
  }

  /** Notes that a command of `callKey` reached the stage; whether it is the first for that call. */
  receive(callKey: string | undefined): boolean {
    if (!callKey || this.received.includes(callKey)) return false;
    this.received.push(callKey);
    if (this.received.length > MAX_RECEIVED) this.received.splice(0, this.received.length - MAX_RECEIVED);
    return true;
  }

  remember(callKey: string | undefined, type: RecentCall['type'], targetId: string, state: JsonObject): void {
    if (!callKey) return;
    this.recent.push({ callKey, type, targetId, state });
    if (this.recent.length > MAX_RECENT) this.recent.splice(0, this.recent.length - MAX_RECENT);
  }

  hello(shown: ShownTarget | undefined): StageHello {
    return {
      type: 'stage/hello',
      recent: this.recent,
      received: this.received,
      startedAt: this.startedAt,
      ...(shown ? { activeTargetId: shown.targetId } : {}),
      ...(shown?.preview ? { previewing: true } : {}),
      ...(shown?.isApp ? { activeApp: true } : {}),
    };
  }
}
