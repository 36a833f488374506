import { useEffect, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';

interface Waiting {
  order: number;
  mount(): void;
}

const waiting = new Set<Waiting>();
let draining = false;

/** Mounts the waiting child of the highest order, in a task of its own, then schedules the next one. */
function mountNext(): void {
  let next: Waiting | undefined;
  for (const entry of waiting) if (!next || entry.order > next.order) next = entry;
  if (!next) {
    draining = false;
    return;
  }
  waiting.delete(next);
  flushSync(next.mount);
  setTimeout(mountNext, 0);
}

function enqueue(entry: Waiting): void {
  waiting.add(entry);
  if (draining) return;
  draining = true;
  setTimeout(mountNext, 0);
}

/**
 * Shows `placeholder` when it mounts and `children` a moment later, one such child per task, highest `order` first
 * (the message list's last turn, the latest message, comes first). Mounting many heavy children at once (the turns
 * in view when a conversation opens, parsed markdown and all) so never holds the main thread as one long task, and
 * each child's render is committed as soon as it is done, so none is thrown away when the list changes meanwhile.
 */
export function DeferredMount({
  placeholder,
  children,
  order,
  defer = true,
}: {
  placeholder: ReactNode;
  children: ReactNode;
  order: number;
  /** False mounts the children at once (while something streams, say, and only one turn changes). */
  defer?: boolean;
}) {
  const [mounted, setMounted] = useState(!defer);
  useEffect(() => {
    if (mounted || !defer) return;
    const entry = { order, mount: () => setMounted(true) };
    enqueue(entry);
    return () => void waiting.delete(entry);
  }, [mounted, defer, order]);
  return mounted || !defer ? children : placeholder;
}
