import { z } from 'zod';
import { JOB_LIMITS } from './job-limits';

/** runScript's input: the schema the model sees and the job control checks a call against. */
export const runScriptInputSchema = z.object({
  code: z
    .string()
    .min(1)
    .max(100_000)
    .describe(
      'JavaScript to run, as the body of an async function (top-level await works). `input` holds the input; console.log prints. The result is what the code `return`s; without a `return`, the value of its last statement if that is an expression, as a console shows it (`let p = 2; p * 3` gives 6; code that is one object literal gives it); else null. Code that does not parse is not run.',
    ),
  input: z.unknown().optional().describe('Any JSON value, passed to the code as `input`.'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(JOB_LIMITS.maxTimeoutSeconds)
    .optional()
    .describe(`Time limit in seconds (default ${JOB_LIMITS.defaultTimeoutSeconds}).`),
  background: z
    .boolean()
    .optional()
    .describe('true: return the jobId at once and let the job run; read it later with jobStatus.'),
});
