import type { PageEvent } from '@/lib/protocol/page-wire';

/** Everything the script keeps for its document. It lives on the isolated world's global, so re-injection keeps it. */
export interface AgentState {
  documentId: string;
  refOf: WeakMap<Element, string>;
  elementOf: Map<string, WeakRef<Element>>;
  nextRef: number;
  events: PageEvent[];
  listening: boolean;
}

const STATE_KEY = Symbol.for('splitbrain.page-agent');

export function agentState(): AgentState {
  const holder = globalThis as unknown as Record<symbol, AgentState | undefined>;
  holder[STATE_KEY] ??= {
    documentId: crypto.randomUUID(),
    refOf: new WeakMap(),
    elementOf: new Map(),
    nextRef: 1,
    events: [],
    listening: false,
  };
  return holder[STATE_KEY];
}

/** The element's ref, made on first sight and never given to another element. */
export function refFor(element: Element): string {
  const state = agentState();
  const known = state.refOf.get(element);
  if (known !== undefined) return known;
  const ref = `e${state.nextRef++}`;
  state.refOf.set(element, ref);
  state.elementOf.set(ref, new WeakRef(element));
  return ref;
}

export function knownRef(element: Element): string | undefined {
  return agentState().refOf.get(element);
}

export function elementForRef(ref: string): Element | undefined {
  return agentState().elementOf.get(ref)?.deref();
}

const MAX_EVENTS = 50;

export function recordEvent(event: PageEvent): void {
  const events = agentState().events;
  const last = events.at(-1);
  if (last !== undefined && last.kind === event.kind && last.text === event.text && event.at - last.at < 1000) return;
  events.push(event);
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
}

/** The events since the last observation; the next observation starts a new list. */
export function takeEvents(): PageEvent[] {
  const state = agentState();
  const events = state.events;
  state.events = [];
  return events;
}
