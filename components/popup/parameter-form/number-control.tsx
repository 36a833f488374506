import type { ParameterInput } from '@/lib/manifest/parameter-inputs';
import { NumberField } from './number-field';

export interface NumberControlProps {
  name: string;
  input: Extract<ParameterInput, { kind: 'slider' | 'number' }>;
  value: number;
  describedBy?: string;
  onChange(value: number): void;
}

export function NumberControl({ name, input, value, describedBy, onChange }: NumberControlProps) {
  return (
    <div className="number-control">
      {input.kind === 'slider' && (
        <input
          className="slider"
          type="range"
          aria-label={`${name} slider`}
          aria-describedby={describedBy}
          min={input.min}
          max={input.max}
          step={input.sliderStep}
          value={value}
          onInput={(event) => onChange(Number(event.currentTarget.value))}
        />
      )}
      <NumberField
        label={name}
        value={value}
        min={input.min}
        max={input.max}
        step={input.step}
        describedBy={describedBy}
        onCommit={onChange}
      />
    </div>
  );
}
