import { useState, type FormEvent } from 'react';

export interface NumberFieldProps {
  label: string;
  value: number;
  min?: number;
  max?: number;
  step?: number;
  describedBy?: string;
  onCommit(value: number): void;
}

/**
 * A number typed in full is sent on Enter or when the field loses focus, not per keystroke;
 * the spin buttons, arrow keys and a value set by a tool (an `input` event without `inputType`)
 * are complete values and are sent at once.
 */
export function NumberField({ label, value, min, max, step, describedBy, onCommit }: NumberFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = (text: string | null) => {
    setDraft(null);
    if (text === null || text.trim() === '') return;
    const parsed = Number(text);
    if (Number.isFinite(parsed) && parsed !== value) onCommit(parsed);
  };
  const change = (event: FormEvent<HTMLInputElement>) => {
    const typed = Boolean((event.nativeEvent as InputEvent).inputType);
    if (typed) setDraft(event.currentTarget.value);
    else commit(event.currentTarget.value);
  };
  return (
    <input
      className="number-field"
      type="number"
      inputMode="decimal"
      aria-label={label}
      aria-describedby={describedBy}
      value={draft ?? String(value)}
      min={min}
      max={max}
      step={step ?? 'any'}
      onInput={change}
      onBlur={() => commit(draft)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit(draft);
      }}
    />
  );
}
