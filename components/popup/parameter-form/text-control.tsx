import { useState } from 'react';

export interface TextControlProps {
  name: string;
  value: string;
  maxLength?: number;
  describedBy?: string;
  onChange(value: string): void;
}

/** Sent on Enter or when the field loses focus, so a word is not applied letter by letter. */
export function TextControl({ name, value, maxLength, describedBy, onChange }: TextControlProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft !== null && draft !== value) onChange(draft);
    setDraft(null);
  };
  return (
    <input
      className="text-control"
      type="text"
      aria-label={name}
      aria-describedby={describedBy}
      maxLength={maxLength}
      value={draft ?? value}
      onInput={(event) => setDraft(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}
