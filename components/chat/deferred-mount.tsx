import { useDeferredValue, useEffectEvent, useLayoutEffect, type ReactNode } from 'react';

/**
 * Shows `placeholder` in the render that mounts it and `children` in a background render right after. React renders
 * that one in slices between which the browser runs, so mounting many heavy children at once (the turns in view when
 * a conversation opens, parsed markdown and all) never holds the main thread as one long task.
 */
export function DeferredMount({
  placeholder,
  children,
  defer = true,
  onShown,
}: {
  placeholder: ReactNode;
  children: ReactNode;
  /** False while something streams: its frequent renders would keep interrupting the background one. */
  defer?: boolean;
  /** Called in the commit that puts `children` in place of the placeholder, before the browser lays it out. */
  onShown?: () => void;
}) {
  const mounted = useDeferredValue(true, false);
  const shown = mounted || !defer;
  const shownNow = useEffectEvent(() => onShown?.());
  useLayoutEffect(() => {
    if (shown) shownNow();
  }, [shown]);
  return shown ? children : placeholder;
}
