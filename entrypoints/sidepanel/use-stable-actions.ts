import { useLayoutEffect, useState } from 'react';
import { ActionForwarder, type Actions } from '@/lib/panel/action-forwarder';

/** The same object of actions for the panel's whole life, each calling its newest version (see ActionForwarder). */
export function useStableActions<T extends Actions<T>>(actions: T): T {
  const [forwarder] = useState(() => new ActionForwarder(actions));
  useLayoutEffect(() => forwarder.update(actions));
  return forwarder.actions;
}
