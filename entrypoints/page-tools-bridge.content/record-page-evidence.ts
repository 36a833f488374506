import { scriptSource, scriptSourceOf } from '@/lib/page-observation/script-source';
import {
  PAGE_EVIDENCE_LIMITS,
  PAGE_EVIDENCE_REPLY_EVENT,
  PAGE_EVIDENCE_REQUEST_EVENT,
} from '@/lib/protocol/page-tools-bridge-events';

interface ConsoleError {
  kind: 'exception' | 'rejection' | 'console';
  message: string;
  source?: string;
}

type DialogKind = 'alert' | 'confirm' | 'prompt';

/*
 * What went wrong in this document, for the evidence of the agent's next action: uncaught exceptions (the window's
 * `error` event), unhandled rejections, `console.error` calls, and the `alert`/`confirm`/`prompt` dialogs the page
 * opened. Only the main world sees these: an isolated-world content script has its own `console` and `window.alert`
 * and gets no `error` event for the page's scripts. This runs where the page-tools bridge runs, from document_start:
 * a MAIN-world content script registered with `scripting.registerContentScripts` (Chrome, and Firefox from 128 in
 * Manifest V2 too, which is why no `<script>` element or `wrappedJSObject`/`exportFunction` is needed there; the
 * Firefox e2e shows listeners seen from document_start).
 *
 * Each wrapper records first and then calls the original with `this` and the arguments untouched (an `alert` blocks
 * until answered, so it is recorded before it opens). The first entries after each read are kept, the rest only
 * counted; texts are cut to 300 characters. The page agent reads (and so empties) the record with a request event
 * that is answered during its own dispatch. A page can forge a reply, read this one or break the wrappers: what it
 * gets is its own evidence altered, which is page data fenced like its text.
 */
export function recordPageEvidence(): void {
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const describeProperty = Object.getOwnPropertyDescriptor;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const ErrorClass = Error;
  const ErrorEventClass = ErrorEvent;
  const CustomEventClass = CustomEvent;
  const dispatchEvent = EventTarget.prototype.dispatchEvent;
  const addListener = EventTarget.prototype.addEventListener;
  const limit = PAGE_EVIDENCE_LIMITS.textLength;

  let consoleErrors: ConsoleError[] = [];
  let dialogs: { kind: DialogKind; message: string }[] = [];
  let droppedConsoleErrors = 0;
  let droppedDialogs = 0;

  const text = (value: unknown): string => {
    try {
      if (value instanceof ErrorClass) return `${value.name}: ${value.message}`.slice(0, limit);
      return (typeof value === 'string' ? value : String(value)).slice(0, limit);
    } catch {
      return '(a value that cannot be written as text)';
    }
  };
  const noteError = (entry: ConsoleError) => {
    if (consoleErrors.length < PAGE_EVIDENCE_LIMITS.consoleErrors) consoleErrors.push(entry);
    else droppedConsoleErrors++;
  };
  const guarded = (record: () => void) => {
    try {
      record();
    } catch {
      // Recording never breaks the page's call.
    }
  };

  apply(addListener, window, [
    'error',
    (event: Event) =>
      guarded(() => {
        // Resource load failures reach the window too, as plain events; the network evidence has those.
        if (!(event instanceof ErrorEventClass)) return;
        const source = scriptSource(String(event.filename ?? ''), event.lineno, event.colno);
        noteError({ kind: 'exception', message: text(event.message), ...(source ? { source } : {}) });
      }),
  ]);
  apply(addListener, window, [
    'unhandledrejection',
    (event: PromiseRejectionEvent) =>
      guarded(() => {
        const reason: unknown = event.reason;
        const source = scriptSourceOf((reason as { stack?: unknown } | null)?.stack);
        noteError({ kind: 'rejection', message: text(reason), ...(source ? { source } : {}) });
      }),
  ]);

  wrap(console, 'error', (args) =>
    guarded(() => {
      const source = scriptSourceOf(new ErrorClass().stack);
      noteError({ kind: 'console', message: args.map(text).join(' ').slice(0, limit), ...(source ? { source } : {}) });
    }),
  );
  for (const kind of ['alert', 'confirm', 'prompt'] as const)
    wrap(window, kind, (args) =>
      guarded(() => {
        if (dialogs.length < PAGE_EVIDENCE_LIMITS.dialogs) dialogs.push({ kind, message: text(args[0] ?? '') });
        else droppedDialogs++;
      }),
    );

  apply(addListener, document, [
    PAGE_EVIDENCE_REQUEST_EVENT,
    (event: Event) =>
      guarded(() => {
        const id: unknown = parse(String((event as CustomEvent).detail)).id;
        if (typeof id !== 'string') return;
        const detail = stringify({ id, consoleErrors, dialogs, droppedConsoleErrors, droppedDialogs });
        consoleErrors = [];
        dialogs = [];
        droppedConsoleErrors = 0;
        droppedDialogs = 0;
        apply(dispatchEvent, document, [new CustomEventClass(PAGE_EVIDENCE_REPLY_EVENT, { detail })]);
      }),
  ]);

  function wrap(holder: object, name: string, record: (args: unknown[]) => void): void {
    const descriptor = describeProperty(holder, name);
    if (typeof descriptor?.value !== 'function' || !descriptor.configurable) return;
    defineProperty(holder, name, {
      ...descriptor,
      value: new Proxy(descriptor.value as (...args: unknown[]) => unknown, {
        apply(original, thisArgument, args: unknown[]) {
          record(args);
          return apply(original, thisArgument, args);
        },
      }),
    });
  }
}
