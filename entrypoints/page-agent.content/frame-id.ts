import { contentRuntime } from './extension-api';

/** The extension frame id of an iframe, where the browser offers `runtime.getFrameId` (Firefox does; Chrome not yet). */
export function frameIdOf(element: Element): number | undefined {
  const getFrameId = contentRuntime()?.getFrameId;
  if (typeof getFrameId !== 'function') return undefined;
  try {
    const id = getFrameId(element);
    return Number.isInteger(id) && id >= 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
