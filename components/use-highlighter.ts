import { useEffect, useState } from 'react';
import { loadedHighlighter, loadHighlighter, type HighlightPlugin } from '@/lib/markdown/load-highlighter';

/** The highlighting plugin when `wanted`, loading it the first time; the block renders uncoloured until it arrives. */
export function useHighlighter(wanted: boolean): HighlightPlugin | undefined {
  const [plugin, setPlugin] = useState(loadedHighlighter);
  useEffect(() => {
    if (!wanted || plugin) return;
    let live = true;
    void loadHighlighter().then((loaded) => live && setPlugin(() => loaded));
    return () => {
      live = false;
    };
  }, [wanted, plugin]);
  return wanted ? plugin : undefined;
}
