import type { FormField, StoredForm } from './form-definition';

/** What the inputs hold while the user edits: numbers as typed text, so a half-typed value is not lost. */
export type FormDraft = Record<string, string | boolean>;

export function initialDraft(form: StoredForm): FormDraft {
  return Object.fromEntries(form.fields.map((field) => [field.id, initialValue(field)]));
}

function initialValue(field: FormField): string | boolean {
  switch (field.type) {
    case 'toggle':
      return field.default ?? false;
    case 'color':
      return field.default ?? '#000000';
    case 'slider':
      return String(field.default ?? field.min);
    case 'number':
      return field.default === undefined ? '' : String(field.default);
    default:
      return field.default ?? '';
  }
}

/** The payload sent for a draft: numbers parsed (text that is no number is sent as it is, for the runtime to refuse). */
export function draftPayload(form: StoredForm, draft: FormDraft): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of form.fields) {
    const value = draft[field.id];
    if (field.type === 'number' || field.type === 'slider') {
      if (value === '' || value === undefined) continue;
      const number = Number(value);
      payload[field.id] = typeof value === 'string' && value.trim() !== '' && Number.isFinite(number) ? number : value;
    } else if (field.type === 'choice' && value === '') continue;
    else payload[field.id] = value;
  }
  return payload;
}

/** The pointer of one field's value in a submission, as the runtime's problems name it. */
export function fieldPath(fieldId: string): string {
  return `/payload/${fieldId.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
