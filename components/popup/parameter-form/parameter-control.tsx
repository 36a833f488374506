import { parameterInput } from '@/lib/manifest/parameter-inputs';
import type { ParameterValue } from '@/lib/manifest/parameter-validation';
import type { ParameterSpec } from '@/lib/protocol/target-manifest';
import { ColorControl } from './color-control';
import { NumberControl } from './number-control';
import { SelectControl } from './select-control';
import { TextControl } from './text-control';
import { ToggleControl } from './toggle-control';
import { VectorControl } from './vector-control';

export interface ParameterControlProps {
  name: string;
  spec: ParameterSpec;
  value: ParameterValue;
  describedBy?: string;
  onChange(value: ParameterValue): void;
}

/** The input the manifest calls for; the form's values always have the spec's type. */
export function ParameterControl({ name, spec, value, describedBy, onChange }: ParameterControlProps) {
  const input = parameterInput(spec);
  const common = { name, describedBy };
  switch (input.kind) {
    case 'slider':
    case 'number':
      return <NumberControl {...common} input={input} value={value as number} onChange={onChange} />;
    case 'vector':
      return <VectorControl {...common} input={input} value={value as number[]} onChange={onChange} />;
    case 'toggle':
      return <ToggleControl {...common} value={value as boolean} onChange={onChange} />;
    case 'select':
      return <SelectControl {...common} options={input.options} value={value as string} onChange={onChange} />;
    case 'color':
      return <ColorControl {...common} value={value as string} onChange={onChange} />;
    case 'text':
      return <TextControl {...common} maxLength={input.maxLength} value={value as string} onChange={onChange} />;
  }
}
