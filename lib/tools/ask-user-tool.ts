import { z } from 'zod';
import { formDefinitionSchema } from '../forms/form-definition';
import type { AskedTool } from '../tool-family/tool-family';

export const askUserInputSchema = z.object({
  question: z.string().min(1).max(2000).describe("The question, in the user's language."),
  answerType: z
    .enum(['choice', 'text', 'number', 'form'])
    .describe(
      '"choice" to pick one of `choices`, "text" for free text, "number" for a number, "form" for several typed values at once (`form`).',
    ),
  choices: z
    .array(z.string().min(1).max(200))
    .min(2)
    .max(10)
    .optional()
    .describe('The options to pick from, when answerType is "choice".'),
  form: formDefinitionSchema
    .optional()
    .describe(
      'When answerType is "form": `fields` (each with `id`, `label`, `type`: text | number (unit, min, max, integer) | choice (options) | toggle | color (#rrggbb) | slider (min, max, step, unit); optional `default`, `help`) and optional `actions` (buttons: `id`, `label`; default one "submit"). The answer is `{ actionId, values }` with one value per field id.',
    ),
});

/** askUser: the human loop records the question and answers the call with the user's answer (see ask-user.ts). */
export const askUserTool: AskedTool = {
  name: 'askUser',
  description:
    'Ask the user a question when you lack information only they have, and wait for the answer. Never guess an answer yourself; if the question expires unanswered, say what you need and stop.',
  inputSchema: askUserInputSchema,
  sideEffect: 'side-effecting',
  runsOn: 'user',
  approval: { offered: false },
};
