import { rangeLabel } from '@/lib/manifest/parameter-inputs';
import type { ParameterValue } from '@/lib/manifest/parameter-validation';
import type { ParameterSpec } from '@/lib/protocol/target-manifest';
import type { FieldResult } from '@/lib/popup/parameter-outcome';
import { ParameterControl } from './parameter-control';

export interface ParameterFieldProps {
  name: string;
  spec: ParameterSpec;
  value: ParameterValue;
  result?: FieldResult;
  /** Changes from elsewhere so far; a new number replays the highlight. */
  remoteChanges: number;
  onChange(value: ParameterValue): void;
}

export function ParameterField({ name, spec, value, result, remoteChanges, onChange }: ParameterFieldProps) {
  const descriptionId = `parameter-${name}-description`;
  const range = rangeLabel(spec);
  return (
    <div className="parameter-field" data-parameter={name}>
      {remoteChanges > 0 && <span key={remoteChanges} className="field-flash" aria-hidden="true" />}
      <div className="field-head">
        <span className="field-name">{name}</span>
        {range && <span className="field-range">{range}</span>}
        {spec.unit && <span className="field-unit">{spec.unit}</span>}
      </div>
      <ParameterControl
        name={name}
        spec={spec}
        value={value}
        describedBy={spec.description ? descriptionId : undefined}
        onChange={onChange}
      />
      {spec.description && (
        <p className="field-description" id={descriptionId}>
          {spec.description}
        </p>
      )}
      <p className={`field-result${result ? ` tone-${result.tone}` : ''}`} role="status" aria-live="polite">
        {result?.message}
      </p>
    </div>
  );
}
