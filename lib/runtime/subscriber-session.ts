import { subscriberMessageSchema, type PublisherMessage, type SubscriberMessage } from '../protocol/runtime-message';
import type { PanelVisibility } from '../notify/panel-visibility';
import type { Runtime } from './runtime';
import { errorText } from '../protocol/error-text';

/** One side panel's `events` port, as the runtime sees it. */
export interface SubscriberPort {
  postMessage(message: PublisherMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

export type SubscriberRuntime = Pick<
  Runtime,
  'registerOwner' | 'claimTurn' | 'releaseTurn' | 'subscribe' | 'interruptOrphanedTurns' | 'ownerGone' | 'turnsBefore'
>;

export interface SubscriberSessionOptions {
  runtime: SubscriberRuntime;
  newId(): string;
  setTimer(callback: () => void, delayMs: number): void;
  /** How long after a subscribe a turn left open with no driver (the runtime restarted) waits to be interrupted. */
  orphanGraceMs: number;
  /** Where the panel's reports of which conversation it shows, and whether visibly, go. */
  visibility?: Pick<PanelVisibility, 'report' | 'gone'>;
}

type Subscribe = Extract<SubscriberMessage, { type: 'events/subscribe' }>;
type TurnsBefore = Extract<SubscriberMessage, { type: 'turns/before' }>;

/**
 * Serves one side panel: hands out a snapshot with every later event of each session it subscribes to, tagged
 * with its generation; lets it own the turns it drives; and, when it goes away, ends what it drove.
 */
export function attachSubscriber(port: SubscriberPort, options: SubscriberSessionOptions): void {
  const { runtime } = options;
  const ownerId = options.newId();
  const sessions = new Set<string>();
  // A panel shows one conversation: its live events carry no session of their own, so a subscribe replaces the
  // one before (another conversation's events would otherwise arrive as this one's).
  let unsubscribeCurrent: () => void = () => undefined;
  let latestSubscribe = 0;
  runtime.registerOwner(ownerId, ({ turnId, commandId }) =>
    port.postMessage({ type: 'turn/cancel', turnId, commandId }),
  );

  const subscribe = async ({ sessionId, generation }: Subscribe) => {
    sessions.add(sessionId);
    const order = ++latestSubscribe;
    unsubscribeCurrent();
    unsubscribeCurrent = () => undefined;
    const subscription = await runtime.subscribe(sessionId, (event) =>
      port.postMessage({ type: 'events/live', generation, event }),
    );
    if (order !== latestSubscribe) {
      subscription.unsubscribe();
      return;
    }
    unsubscribeCurrent = subscription.unsubscribe;
    port.postMessage({
      type: 'events/snapshot',
      sessionId,
      generation,
      snapshotSeq: subscription.snapshotSeq,
      events: subscription.snapshot,
      ...(subscription.state ? { state: subscription.state } : {}),
    });
    options.setTimer(
      () =>
        void runtime
          .interruptOrphanedTurns(sessionId, 'The side panel that ran this turn is gone.')
          // Not written now (the store refused it): the next subscribe to this session tries again.
          .catch(() => undefined),
      options.orphanGraceMs,
    );
  };

  // Posted from under the session's lock (the page's lastSeq), so it is in order with the live events.
  const sendTurns = async ({ sessionId, generation, before, limit }: TurnsBefore) => {
    const page = await runtime.turnsBefore(sessionId, before, limit);
    port.postMessage({ type: 'events/turns', sessionId, generation, ...page });
  };

  // The panel waits for its answer: a request that failed (the store refused a read or a write) is told, not dropped.
  const refused =
    ({ sessionId, generation }: Subscribe | TurnsBefore) =>
    (error: unknown) =>
      port.postMessage({ type: 'events/error', sessionId, generation, message: errorText(error, { json: true }) });

  port.onMessage((raw) => {
    const parsed = subscriberMessageSchema.safeParse(raw);
    if (!parsed.success) {
      port.postMessage({
        type: 'events/error',
        message: `Invalid subscriber message: ${parsed.error.issues[0]?.message}`,
      });
      return;
    }
    const message = parsed.data;
    if (message.type === 'turn/own') runtime.claimTurn(ownerId, message.turnId);
    else if (message.type === 'turn/release') runtime.releaseTurn(ownerId, message.turnId);
    else if (message.type === 'panel/visibility')
      options.visibility?.report(ownerId, message.sessionId, message.visible);
    else if (message.type === 'turns/before') void sendTurns(message).catch(refused(message));
    else void subscribe(message).catch(refused(message));
  });
  port.onDisconnect(() => {
    options.visibility?.gone(ownerId);
    latestSubscribe += 1;
    unsubscribeCurrent();
    // Not written now: the orphan check of the next subscribe ends those turns.
    void runtime.ownerGone(ownerId, sessions, 'The side panel was closed during this turn.').catch(() => undefined);
  });
}
