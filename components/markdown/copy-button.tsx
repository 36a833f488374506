import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from '../shared/icons';

export function CopyButton({ text, label = 'Copy code' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    void navigator.clipboard.writeText(text).then(() => setCopied(true));
  };
  return (
    <button
      type="button"
      className="icon-button copy-button"
      aria-label={copied ? 'Copied' : label}
      title={copied ? 'Copied' : label}
      onClick={copy}
      data-copied={copied || undefined}
    >
      {copied ? <CheckIcon /> : <CopyIcon />}
    </button>
  );
}
