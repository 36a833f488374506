import { startTransition, useEffect, useState } from 'react';
import { loadedHighlighter, loadHighlighter, type HighlightPlugin } from '@/lib/markdown/load-highlighter';

/**
 * The highlighting plugin when `wanted`, loading it the first time; the block renders uncoloured until it arrives.
 * Its arrival colours every block in view at once, so that render is a transition, rendered in slices.
 */
export function useHighlighter(wanted: boolean): HighlightPlugin | undefined {
  const [plugin, setPlugin] = useState(loadedHighlighter);
  useEffect(() => {
    if (!wanted || plugin) return;
    let live = true;
    void loadHighlighter().then((loaded) => live && startTransition(() => setPlugin(() => loaded)));
    return () => {
      live = false;
    };
  }, [wanted, plugin]);
  return wanted ? plugin : undefined;
}
