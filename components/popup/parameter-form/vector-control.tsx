import type { ParameterInput } from '@/lib/manifest/parameter-inputs';
import { NumberField } from './number-field';

export interface VectorControlProps {
  name: string;
  input: Extract<ParameterInput, { kind: 'vector' }>;
  value: number[];
  describedBy?: string;
  onChange(value: number[]): void;
}

export function VectorControl({ name, input, value, describedBy, onChange }: VectorControlProps) {
  const wide = input.labels.length <= 4;
  return (
    <div
      className={`vector-control${wide ? '' : ' vector-control-dense'}`}
      role="group"
      aria-label={name}
      aria-describedby={describedBy}
    >
      {input.labels.map((label, index) => (
        <label key={label + index} className="vector-element">
          <span className="vector-label" aria-hidden="true">
            {label}
          </span>
          <NumberField
            label={`${name} ${label}`}
            value={value[index] ?? 0}
            min={input.min}
            max={input.max}
            step={input.step}
            onCommit={(element) => onChange(value.map((old, position) => (position === index ? element : old)))}
          />
        </label>
      ))}
    </div>
  );
}
