import type { JsonObject } from '../protocol/json-value';
import {
  STAGE_SOURCE,
  targetToStageMessageSchema,
  type PortHandoverMessage,
  type StageCommand,
  type StageToTargetMessage,
} from '../protocol/target-wire';

interface Waiting {
  resolve(state: JsonObject): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface TargetChannelOptions {
  /** Posts to the target's window; `transfer` carries the MessagePort handed over after `ready`. */
  post(message: StageToTargetMessage | PortHandoverMessage, transfer?: Transferable[]): void;
  timeoutMs: number;
  newId(): string;
  onState?(state: JsonObject): void;
  /** An error the target reported on its own (uncaught, or `reportError`), not as the answer to a command. */
  onError?(message: string): void;
}

/**
 * The stage's side of the target wire: queues commands until the target says `ready` by window,
 * then hands it a MessagePort and carries everything else over that port, in order, pairing each
 * `state` or `error` reply with its command by id. The caller must pass only window messages whose
 * `event.source` is this target's frame; after the handover it accepts no window message at all.
 */
export class TargetChannel {
  private ready = false;
  private port: MessagePort | undefined;
  private readonly queue: StageToTargetMessage[] = [];
  private readonly waiting = new Map<string, Waiting>();
  lastState: JsonObject | undefined;

  constructor(private readonly options: TargetChannelOptions) {}

  get isReady(): boolean {
    return this.ready;
  }

  send(command: StageCommand): Promise<JsonObject> {
    const message = { ...command, source: STAGE_SOURCE, id: this.options.newId() } as StageToTargetMessage;
    return new Promise<JsonObject>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(message.id);
        reject(
          new Error(
            this.ready
              ? `The target did not answer within ${this.options.timeoutMs} ms.`
              : `The target did not become ready within ${this.options.timeoutMs} ms.`,
          ),
        );
      }, this.options.timeoutMs);
      this.waiting.set(message.id, { resolve, reject, timer });
      if (this.port) this.port.postMessage(message);
      else this.queue.push(message);
    });
  }

  /** A message from the target's window: only its `ready` counts, once; the rest comes over the port. */
  receive(data: unknown): void {
    if (this.ready) return;
    const parsed = targetToStageMessageSchema.safeParse(data);
    if (!parsed.success || parsed.data.type !== 'ready') return;
    this.ready = true;
    if (parsed.data.state) this.lastState = parsed.data.state;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    port1.onmessage = (event: MessageEvent) => this.receiveFromPort(event.data);
    this.options.post({ source: STAGE_SOURCE, type: 'port' }, [port2]);
    for (const queued of this.queue.splice(0)) port1.postMessage(queued);
  }

  private receiveFromPort(data: unknown): void {
    const parsed = targetToStageMessageSchema.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'ready') return;
    if (message.type === 'state') {
      this.lastState = message.payload;
      if (message.id) this.settle(message.id, (waiting) => waiting.resolve(message.payload));
      else this.options.onState?.(message.payload);
      return;
    }
    if (message.id && this.waiting.has(message.id))
      this.settle(message.id, (waiting) =>
        waiting.reject(new Error(`The target reported an error: ${message.message}`)),
      );
    else this.options.onError?.(message.message);
  }

  private settle(id: string, action: (waiting: Waiting) => void): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.waiting.delete(id);
    action(waiting);
  }

  /** The frame is gone or replaced: every command still waiting fails with the reason. */
  close(reason: string): void {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(reason));
      this.waiting.delete(id);
    }
    this.queue.length = 0;
    this.port?.close();
  }
}
