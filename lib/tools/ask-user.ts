import { z } from 'zod';
import type { JsonValue } from '../protocol/json-value';
import { problemsFromIssues, problemsText, type ViewProblem } from '../view-artifacts/view-problems';
import { DEFAULT_FORM_ACTIONS, storedFormSchema, type FormDefinition } from '../forms/form-definition';
import { askUserInputSchema } from './ask-user-tool';
import { issuesText } from '../protocol/issue-text';

/** What an answer must look like; stored in `ask/requested` so any panel can render and check it. */
export const answerSchemaSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('choice'), choices: z.array(z.string()).min(2).max(10) }),
  z.object({ type: z.literal('text'), maxLength: z.number().int().positive() }),
  z.object({ type: z.literal('number') }),
  storedFormSchema,
]);
export type AnswerSchema = z.infer<typeof answerSchemaSchema>;

/** A form question is asked without its artifact id and version, which the runtime gives it when it records it. */
export type AskQuestion =
  | { ok: true; question: string; answerSchema: Exclude<AnswerSchema, { type: 'form' }> }
  | { ok: true; question: string; form: FormDefinition }
  | { ok: false; error: string; problems?: ViewProblem[] };

/** The form as stored in `ask/requested`: the model's definition, its actions (Submit by default), its id and version. */
export function storedForm(form: FormDefinition, artifactId: string): AnswerSchema {
  return { type: 'form', artifactId, version: 1, fields: form.fields, actions: form.actions ?? DEFAULT_FORM_ACTIONS };
}

/** Reads the model's askUser arguments into a question the user can answer. */
export function askQuestion(input: unknown): AskQuestion {
  const parsed = askUserInputSchema.safeParse(input);
  if (!parsed.success) {
    if ((input as { answerType?: unknown } | null)?.answerType === 'form') {
      const problems = problemsFromIssues(parsed.error.issues);
      return { ok: false, error: `Invalid askUser arguments: ${problemsText(problems)}`, problems };
    }
    return {
      ok: false,
      error: `Invalid askUser arguments: ${issuesText(parsed.error.issues)}`,
    };
  }
  const { question, answerType, choices, form } = parsed.data;
  if (answerType === 'form') {
    if (!form)
      return {
        ok: false,
        error: 'askUser with answerType "form" needs `form` (its fields).',
        problems: [{ path: '/form', message: 'is required when answerType is "form"' }],
      };
    return { ok: true, question, form };
  }
  if (answerType === 'choice') {
    if (!choices) return { ok: false, error: 'askUser with answerType "choice" needs `choices` (2 to 10 options).' };
    return { ok: true, question, answerSchema: { type: 'choice', choices } };
  }
  return {
    ok: true,
    question,
    answerSchema: answerType === 'number' ? { type: 'number' } : { type: 'text', maxLength: 2000 },
  };
}

export type CheckedAnswer = { ok: true; value: JsonValue } | { ok: false; error: string };

/** The answer is task data: it must match the question's schema exactly. */
export function checkAnswer(schema: JsonValue, answer: unknown): CheckedAnswer {
  const parsedSchema = answerSchemaSchema.safeParse(schema);
  if (!parsedSchema.success) return { ok: false, error: 'This question has no valid answer format.' };
  const expected = parsedSchema.data;
  switch (expected.type) {
    case 'choice':
      return typeof answer === 'string' && expected.choices.includes(answer)
        ? { ok: true, value: answer }
        : { ok: false, error: `Pick one of: ${expected.choices.join(', ')}.` };
    case 'number':
      return typeof answer === 'number' && Number.isFinite(answer)
        ? { ok: true, value: answer }
        : { ok: false, error: 'The answer must be a number.' };
    case 'form':
      return { ok: false, error: 'A form is answered by submitting it (artifact/act), not as a plain answer.' };
    case 'text': {
      if (typeof answer !== 'string' || answer.trim() === '')
        return { ok: false, error: 'The answer must not be empty.' };
      if (answer.length > expected.maxLength)
        return { ok: false, error: `The answer is longer than ${expected.maxLength} characters.` };
      return { ok: true, value: answer };
    }
  }
}
