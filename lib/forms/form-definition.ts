import { z } from 'zod';

/** Bounds of a form the model may define: every form is small enough to read at a glance and to log. */
export const FORM_LIMITS = { fields: 20, options: 20, actions: 3, label: 200, help: 500, textLength: 2000 } as const;

const fieldId = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'a letter, then letters, digits, "_" or "-" (at most 64)');
const label = z.string().min(1).max(FORM_LIMITS.label);
const unit = z.string().min(1).max(20);
const common = { id: fieldId, label, help: z.string().max(FORM_LIMITS.help).optional() };

const textField = z.strictObject({
  ...common,
  type: z.literal('text'),
  required: z.boolean().optional(),
  multiline: z.boolean().optional(),
  maxLength: z.number().int().min(1).max(FORM_LIMITS.textLength).optional(),
  default: z.string().max(FORM_LIMITS.textLength).optional(),
});
const numberField = z.strictObject({
  ...common,
  type: z.literal('number'),
  required: z.boolean().optional(),
  unit: unit.optional(),
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  integer: z.boolean().optional(),
  default: z.number().finite().optional(),
});
const choiceField = z.strictObject({
  ...common,
  type: z.literal('choice'),
  options: z.array(z.string().min(1).max(FORM_LIMITS.label)).min(2).max(FORM_LIMITS.options),
  default: z.string().optional(),
});
const toggleField = z.strictObject({ ...common, type: z.literal('toggle'), default: z.boolean().optional() });
const colorField = z.strictObject({
  ...common,
  type: z.literal('color'),
  default: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')
    .optional(),
});
const sliderField = z.strictObject({
  ...common,
  type: z.literal('slider'),
  min: z.number().finite(),
  max: z.number().finite(),
  step: z.number().finite().positive().optional(),
  unit: unit.optional(),
  default: z.number().finite().optional(),
});

export const formFieldSchema = z.discriminatedUnion('type', [
  textField,
  numberField,
  choiceField,
  toggleField,
  colorField,
  sliderField,
]);
export type FormField = z.infer<typeof formFieldSchema>;
export const FORM_FIELD_TYPES = ['text', 'number', 'choice', 'toggle', 'color', 'slider'] as const;

/** A button of the form. It only answers the question with its id; no action can name or call a tool. */
const formActionSchema = z.strictObject({ id: fieldId, label: z.string().min(1).max(60) });
export type FormAction = z.infer<typeof formActionSchema>;

/** The form as the model writes it (askUser's `form`). */
export const formDefinitionSchema = z
  .strictObject({
    fields: z.array(formFieldSchema).min(1).max(FORM_LIMITS.fields),
    actions: z.array(formActionSchema).min(1).max(FORM_LIMITS.actions).optional(),
  })
  .superRefine((form, context) => {
    const seen = new Set<string>();
    form.fields.forEach((field, index) => {
      if (seen.has(field.id))
        context.addIssue({ code: 'custom', path: ['fields', index, 'id'], message: `"${field.id}" is used twice` });
      seen.add(field.id);
      for (const issue of fieldIssues(field)) context.addIssue({ ...issue, path: ['fields', index, ...issue.path] });
    });
    const actionIds = new Set<string>();
    form.actions?.forEach((action, index) => {
      if (actionIds.has(action.id))
        context.addIssue({ code: 'custom', path: ['actions', index, 'id'], message: `"${action.id}" is used twice` });
      actionIds.add(action.id);
    });
  });
export type FormDefinition = z.infer<typeof formDefinitionSchema>;

function fieldIssues(field: FormField): { code: 'custom'; path: string[]; message: string }[] {
  const issues: { code: 'custom'; path: string[]; message: string }[] = [];
  if ((field.type === 'number' || field.type === 'slider') && field.min !== undefined && field.max !== undefined) {
    if (field.min > field.max) issues.push({ code: 'custom', path: ['max'], message: 'must not be below min' });
    if (field.default !== undefined && (field.default < field.min || field.default > field.max))
      issues.push({ code: 'custom', path: ['default'], message: `must be within ${field.min} to ${field.max}` });
  }
  if (field.type === 'choice' && field.default !== undefined && !field.options.includes(field.default))
    issues.push({ code: 'custom', path: ['default'], message: 'must be one of the options' });
  if (field.type === 'choice' && new Set(field.options).size !== field.options.length)
    issues.push({ code: 'custom', path: ['options'], message: 'options must differ' });
  return issues;
}

export const DEFAULT_FORM_ACTIONS: FormAction[] = [{ id: 'submit', label: 'Submit' }];

/** A form as the runtime stored it in `ask/requested`: the model's definition with its artifact id and version. */
export const storedFormSchema = z.object({
  type: z.literal('form'),
  artifactId: z.string().min(1).max(200),
  version: z.number().int().positive(),
  fields: z.array(formFieldSchema).min(1).max(FORM_LIMITS.fields),
  actions: z.array(formActionSchema).min(1).max(FORM_LIMITS.actions),
});
export type StoredForm = z.infer<typeof storedFormSchema>;
