import type { JsonValue } from '../protocol/json-value';
import type { StoredForm } from './form-definition';

/** One line for a form that was answered: the button pressed and each value with its label and unit. */
export function formAnswerSummary(form: StoredForm, answer: JsonValue | undefined): string | undefined {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
  const { actionId, values } = answer;
  if (typeof actionId !== 'string' || !values || typeof values !== 'object' || Array.isArray(values)) return undefined;
  const action = form.actions.find((candidate) => candidate.id === actionId)?.label ?? actionId;
  const parts = form.fields.flatMap((field) => {
    if (!(field.id in values)) return [];
    const value = values[field.id];
    const shown = typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
    const unit = 'unit' in field && field.unit ? ` ${field.unit}` : '';
    return [`${field.label} ${shown}${unit}`];
  });
  return `Answered (${action}): ${parts.join(', ') || 'no values'}`;
}
