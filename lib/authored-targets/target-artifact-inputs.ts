import { z } from 'zod';
import { TARGET_SOURCE_LIMITS, targetEditSchema } from './target-artifact-source';

export const PARAMS_HELP =
  'The parameter schema, exactly as in a target manifest: { group: { name: spec } } with snake_case names unique across groups. ' +
  'A spec has type "number" | "integer" (min, max, step, unit), "array" (length 1-16 numbers, min, max, unit), "boolean", ' +
  '"string" (maxLength), "enum" (options), or "color" ("#rrggbb"); each has `value` (its default) and optionally description and unit.';

export const SCRIPT_HELP =
  'JavaScript run after `html` is in the body. The host provides window.SplitbrainBridge, window.SplitbrainParams and window.SplitbrainManifest; ' +
  'call SplitbrainBridge.connect({ apply(changes) {…}, reset() {…}, getState() { return values } }).ready() once it can take values. ' +
  'SplitbrainParams.fromManifest() gives defaults() and merge(state, changes). No network, storage or extension API.';

export const permissions = z
  .object({
    network: z.array(z.string()).optional().describe('Origins it may connect to, e.g. "https://api.example.org".'),
    clipboard: z.boolean().optional(),
    download: z.boolean().optional(),
  })
  .optional()
  .describe('What it asks for. Nothing is granted until the user grants it, per target.');

export const parts = {
  title: z.string().describe('Short title shown to the user.'),
  description: z.string().describe('What the target shows and what its parameters do.'),
  params: z.record(z.string(), z.unknown()).describe(PARAMS_HELP),
  html: z.string().max(TARGET_SOURCE_LIMITS.htmlChars).describe('Body markup (no <script>; canvas, controls, text).'),
  css: z.string().max(TARGET_SOURCE_LIMITS.cssChars).optional().describe('Styles for the page.'),
  script: z.string().max(TARGET_SOURCE_LIMITS.scriptChars).describe(SCRIPT_HELP),
  permissions,
};

/** The schema the model is told of; the control reads the parts typed only, to report every problem at once. */
export const updateTargetInputSchema = z.object({
  targetId: z.string().min(1).max(200).describe('The id createTarget returned.'),
  baseVersion: z.number().int().positive().describe('The version this change is made against: the current one.'),
  title: parts.title.optional(),
  description: parts.description.optional(),
  params: parts.params.optional(),
  html: parts.html.optional(),
  css: parts.css,
  script: parts.script.optional(),
  permissions,
  edits: z
    .array(
      targetEditSchema.extend({
        find: targetEditSchema.shape.find.describe('Exact text that occurs exactly once in that part.'),
      }),
    )
    .max(100)
    .optional()
    .describe('Find/replace edits applied in order to the base version (after any whole parts given).'),
});
