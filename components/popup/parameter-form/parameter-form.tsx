import type { ParameterValue } from '@/lib/manifest/parameter-validation';
import type { ParameterFormState } from '@/lib/popup/parameter-form-state';
import { ParameterField } from './parameter-field';

export interface ParameterFormProps {
  form: ParameterFormState;
  resetting: boolean;
  onChange(param: string, value: ParameterValue): void;
  onReset(): void;
}

function groupTitle(group: string): string {
  const words = group.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function ParameterForm({ form, resetting, onChange, onReset }: ParameterFormProps) {
  const { manifest } = form;
  return (
    <section className="parameter-form" aria-labelledby="parameter-form-title">
      <div className="section-head">
        <h2 id="parameter-form-title">
          <span className="section-kicker">Controls</span> {manifest.title}
        </h2>
        <button type="button" className="reset-button" onClick={onReset} disabled={resetting}>
          Reset
        </button>
      </div>
      {form.notice && (
        <p className={`form-notice tone-${form.notice.tone}`} role={form.notice.tone === 'error' ? 'alert' : 'status'}>
          {form.notice.message}
        </p>
      )}
      {Object.entries(manifest.params).map(([group, parameters]) => (
        <fieldset key={group} className="parameter-group">
          <legend>{groupTitle(group)}</legend>
          {Object.entries(parameters).map(([name, spec]) => (
            <ParameterField
              key={name}
              name={name}
              spec={spec}
              value={form.values[name] ?? spec.value}
              result={form.results[name]}
              remoteChanges={form.remoteChanges[name] ?? 0}
              onChange={(value) => onChange(name, value)}
            />
          ))}
        </fieldset>
      ))}
    </section>
  );
}
