import { useId, useState } from 'react';
import type { FormField, StoredForm } from '@/lib/forms/form-definition';
import { draftPayload, fieldPath, initialDraft, type FormDraft } from '@/lib/forms/form-draft';
import type { ViewProblem } from '@/lib/view-artifacts/view-problems';
import type { RequestState } from '@/lib/state/client-state';
import { usePanelActions } from '../shared/panel-actions';

interface FieldProps {
  field: FormField;
  value: string | boolean;
  problem?: string;
  inputId: string;
  onChange(value: string | boolean): void;
}

function unitText(field: { unit?: string }): string {
  return field.unit ? ` (${field.unit})` : '';
}

function rangeText(field: { min?: number; max?: number; unit?: string }): string | undefined {
  if (field.min === undefined && field.max === undefined) return undefined;
  const unit = field.unit ? ` ${field.unit}` : '';
  if (field.min !== undefined && field.max !== undefined) return `${field.min} to ${field.max}${unit}`;
  return field.min !== undefined ? `at least ${field.min}${unit}` : `at most ${field.max}${unit}`;
}

/** One field of the catalog, rendered by the panel: a labelled native control, its help and its problem. */
function FormFieldControl({ field, value, problem, inputId, onChange }: FieldProps) {
  const helpId = `${inputId}-help`;
  const problemId = `${inputId}-problem`;
  const range = field.type === 'number' || field.type === 'slider' ? rangeText(field) : undefined;
  const help = [field.help, range].filter(Boolean).join(' · ');
  const describedBy = [help ? helpId : '', problem ? problemId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id: inputId,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': describedBy,
    'data-field-id': field.id,
  };
  const text = typeof value === 'string' ? value : '';
  let control;
  switch (field.type) {
    case 'text':
      control = field.multiline ? (
        <textarea
          {...common}
          className="form-input"
          value={text}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          className="form-input"
          type="text"
          value={text}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      );
      break;
    case 'number':
      control = (
        <input
          {...common}
          className="form-input"
          type="number"
          inputMode="decimal"
          step="any"
          value={text}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      );
      break;
    case 'slider':
      control = (
        <span className="form-slider">
          <input
            {...common}
            type="range"
            min={field.min}
            max={field.max}
            step={field.step ?? 'any'}
            value={text}
            aria-valuetext={`${text}${field.unit ? ` ${field.unit}` : ''}`}
            onInput={(event) => onChange(event.currentTarget.value)}
          />
          <output htmlFor={inputId}>
            {text}
            {field.unit ? ` ${field.unit}` : ''}
          </output>
        </span>
      );
      break;
    case 'toggle':
      control = (
        <input
          {...common}
          type="checkbox"
          role="switch"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
      break;
    case 'color':
      control = (
        <input {...common} type="color" value={text} onInput={(event) => onChange(event.currentTarget.value)} />
      );
      break;
    case 'choice':
      return (
        <fieldset className="form-field form-choices" data-field={field.id} aria-describedby={describedBy}>
          <legend className="form-label">{field.label}</legend>
          {field.options.map((option) => (
            <label key={option} className="ask-choice">
              <input
                type="radio"
                name={inputId}
                value={option}
                checked={value === option}
                aria-invalid={problem ? true : undefined}
                onChange={() => onChange(option)}
              />{' '}
              {option}
            </label>
          ))}
          {help && (
            <span id={helpId} className="form-help">
              {help}
            </span>
          )}
          {problem && (
            <span id={problemId} className="form-problem" data-problem-path={fieldPath(field.id)}>
              {problem}
            </span>
          )}
        </fieldset>
      );
  }
  return (
    <div className={`form-field form-field-${field.type}`} data-field={field.id}>
      <label className="form-label" htmlFor={inputId}>
        {field.label}
        {'unit' in field && field.type === 'number' ? unitText(field) : ''}
      </label>
      {control}
      {help && (
        <span id={helpId} className="form-help">
          {help}
        </span>
      )}
      {problem && (
        <span id={problemId} className="form-problem" data-problem-path={fieldPath(field.id)}>
          {problem}
        </span>
      )}
    </div>
  );
}

/** A question answered with a form: the panel renders the catalog's fields; the runtime checks what is sent. */
export function FormAnswer({ request, form }: { request: RequestState; form: StoredForm }) {
  const actions = usePanelActions();
  const baseId = useId();
  const [draft, setDraft] = useState<FormDraft>(() => initialDraft(form));
  const [problems, setProblems] = useState<ViewProblem[]>([]);
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const byPath = new Map(problems.map((problem) => [problem.path, problem.message]));
  const fieldPaths = new Set(form.fields.map((field) => fieldPath(field.id)));
  const general = problems.filter((problem) => !fieldPaths.has(problem.path));
  const submit = async (actionId: string) => {
    setSending(true);
    const outcome = await actions.submitForm(request, {
      artifactId: form.artifactId,
      version: form.version,
      actionId,
      payload: draftPayload(form, draft),
    });
    setSending(false);
    setProblems(outcome?.problems ?? []);
    setError(outcome?.error);
  };
  return (
    <form
      className="ask-form form-answer"
      noValidate
      data-artifact-id={form.artifactId}
      data-version={form.version}
      onSubmit={(event) => {
        event.preventDefault();
        void submit(form.actions[0].id);
      }}
    >
      {form.fields.map((field) => (
        <FormFieldControl
          key={field.id}
          field={field}
          value={draft[field.id] ?? ''}
          problem={byPath.get(fieldPath(field.id))}
          inputId={`${baseId}-${field.id}`}
          onChange={(value) => setDraft((current) => ({ ...current, [field.id]: value }))}
        />
      ))}
      {(error || general.length > 0) && (
        <div className="request-error" role="alert">
          {error}
          {general.map((problem) => (
            <span key={problem.path} className="form-problem" data-problem-path={problem.path}>
              {' '}
              {problem.path}: {problem.message}
            </span>
          ))}
        </div>
      )}
      <div className="request-actions">
        {form.actions.map((action, index) => (
          <button
            key={action.id}
            type={index === 0 ? 'submit' : 'button'}
            className={index === 0 ? 'button-primary' : 'button-secondary'}
            disabled={sending}
            data-action-id={action.id}
            onClick={index === 0 ? undefined : () => void submit(action.id)}
          >
            {action.label}
          </button>
        ))}
      </div>
    </form>
  );
}
