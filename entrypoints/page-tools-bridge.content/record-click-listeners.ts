import { CLICK_EVENT_TYPES, DELEGATION_EVENT_TYPES } from '@/lib/page-observation/is-clickable';
import { CLICKABLE_REPLY_EVENT, CLICKABLES_REQUEST_EVENT } from '@/lib/protocol/page-tools-bridge-events';

/*
 * Which elements have click listeners of their own, for the page agent, whose isolated world cannot see them.
 * Installed at document_start (the bridge is a registered MAIN-world content script; injected later, it sees only
 * the listeners added after it), it wraps `EventTarget.prototype.addEventListener` and the `onclick`-like setters in
 * Proxies: `this`, the arguments and the return value pass through untouched, the listener itself is never wrapped
 * (so `removeEventListener` finds it), and the wrapper keeps the original's name and length. A page that replaces
 * `addEventListener` afterwards still calls through it, or its listeners go unseen; nothing breaks either way. A
 * removed listener does not unmark its element (that would need a count per listener and options): the element
 * keeps its ref, and a click on it does what a person's click would.
 *
 * The channel: the marks live in a WeakSet inside this closure, never on the DOM (no attribute for the page to read,
 * strip or trip a MutationObserver on). The page agent dispatches a request event; this answers by dispatching one
 * reply event on each marked element, synchronously, so the agent learns the element from the event's target and
 * the only datum it takes is a count. A page can dispatch replies itself: at worst it marks its own elements
 * clickable, which gives them a ref, and a ref is what any element the model may click already has. Elements in
 * closed shadow roots are not answered for: the agent's window listener would see the event retargeted to the host.
 */
export function recordClickListeners(): void {
  // Taken before the page's scripts run, so a page that replaces these later cannot redirect this code.
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const describeProperty = Object.getOwnPropertyDescriptor;
  const ElementClass = Element;
  const ShadowRootClass = ShadowRoot;
  const CustomEventClass = CustomEvent;
  const WeakRefClass = WeakRef;
  const dispatchEvent = EventTarget.prototype.dispatchEvent;
  const getRootNode = Node.prototype.getRootNode;
  const connected = describeProperty(Node.prototype, 'isConnected')?.get;
  const clickTypes = new Set(CLICK_EVENT_TYPES);
  const typesOf = new WeakMap<Element, Set<string>>();
  const marked = new WeakSet<Element>();
  let recorded: WeakRef<Element>[] = [];
  // A page that makes and drops listened elements for hours (a feed) would grow the list with dead references
  // between observations: it is compacted whenever it doubles.
  let compactAt = 1024;
  const compact = () => {
    recorded = recorded.filter((reference) => reference.deref() !== undefined);
    compactAt = Math.max(1024, recorded.length * 2);
  };

  const note = (target: unknown, type: string) => {
    if (!(target instanceof ElementClass)) return;
    let types = typesOf.get(target);
    if (types === undefined) typesOf.set(target, (types = new Set()));
    if (types.size <= DELEGATION_EVENT_TYPES) types.add(type);
    if (clickTypes.has(type) && !marked.has(target)) {
      marked.add(target);
      recorded.push(new WeakRefClass(target));
      if (recorded.length > compactAt) compact();
    }
  };

  const eventTarget = EventTarget.prototype;
  const adding = describeProperty(eventTarget, 'addEventListener');
  if (typeof adding?.value === 'function' && adding.configurable)
    defineProperty(eventTarget, 'addEventListener', {
      ...adding,
      value: new Proxy(adding.value as EventTarget['addEventListener'], {
        apply(original, thisArgument, args: unknown[]) {
          const result: unknown = apply(original, thisArgument, args);
          try {
            if (typeof args[0] === 'string' && args[1] !== null && args[1] !== undefined) note(thisArgument, args[0]);
          } catch {
            // Bookkeeping never breaks the page's call.
          }
          return result;
        },
      }),
    });

  for (const prototype of [HTMLElement.prototype, SVGElement.prototype])
    for (const type of CLICK_EVENT_TYPES) {
      const handler = describeProperty(prototype, `on${type}`);
      if (typeof handler?.set !== 'function' || !handler.configurable) continue;
      defineProperty(prototype, `on${type}`, {
        ...handler,
        set: new Proxy(handler.set, {
          apply(original, thisArgument, args: unknown[]) {
            const result: unknown = apply(original, thisArgument, args);
            try {
              if (typeof args[0] === 'function') note(thisArgument, type);
            } catch {
              // As above.
            }
            return result;
          },
        }),
      });
    }

  const answer = () => {
    try {
      answerEach();
    } catch {
      // A page that broke a DOM method gets fewer clickable elements, never an error of ours in its console.
    }
  };
  const answerEach = () => {
    compact();
    for (const reference of recorded) {
      const element = reference.deref();
      if (element === undefined) continue;
      if (connected !== undefined && !apply(connected, element, [])) continue;
      const root: unknown = apply(getRootNode, element, []);
      if (root instanceof ShadowRootClass && root.mode !== 'open') continue;
      const detail = typesOf.get(element)?.size ?? 1;
      apply(dispatchEvent, element, [new CustomEventClass(CLICKABLE_REPLY_EVENT, { detail, composed: true })]);
    }
  };
  apply(adding?.value ?? document.addEventListener, document, [CLICKABLES_REQUEST_EVENT, answer]);
}
