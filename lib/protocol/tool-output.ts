import { z } from 'zod';
import { jsonObjectSchema } from './json-value';

/** What a tool answers the model: a JSON object that says whether it worked, and whatever the tool adds. */
export const toolOutputSchema = z.intersection(jsonObjectSchema, z.object({ ok: z.boolean() }));
export type ToolOutput = z.infer<typeof toolOutputSchema>;
