import { useState } from 'react';
import { urlHost } from '@/lib/markdown/safe-url';
import { ImageIcon } from '../shared/icons';

/** Sources the user chose to load stay loaded while the panel is open, also after scrolling away. */
const approvedSources = new Set<string>();

/** A model-written image is never fetched on its own (its URL could carry data out): the user loads it. */
export function ExternalImage({ src, alt }: { src: string | undefined; alt: string | undefined }) {
  const [shown, setShown] = useState(() => (src ? approvedSources.has(src) : false));
  const label = alt?.trim() || 'Image';
  if (!src) {
    return (
      <span className="blocked-image" title="Image removed: only http and https images can be shown">
        <ImageIcon /> {label}
      </span>
    );
  }
  if (shown) return <img className="loaded-image" src={src} alt={alt ?? ''} referrerPolicy="no-referrer" />;
  const host = urlHost(src);
  const load = () => {
    approvedSources.add(src);
    setShown(true);
  };
  return (
    <button
      type="button"
      className="image-placeholder"
      onClick={load}
      aria-label={`Load image “${label}” from ${host}`}
      title={src}
    >
      <ImageIcon />
      <span className="image-placeholder-text">
        <span className="image-alt">{label}</span>
        <span className="image-host">Load from {host}</span>
      </span>
    </button>
  );
}
