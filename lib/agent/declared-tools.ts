import { jsonSchema, tool, zodSchema, type ToolSet } from 'ai';
import type { JSONSchema7 } from '@ai-sdk/provider';
import type { ZodType } from 'zod';
import { withoutFieldDescriptions } from '../context/without-field-descriptions';
import { TOOLS } from '../tools/tool-registry';

/**
 * Below this prompt limit the tools are declared without their fields' descriptions (about 2,000 tokens fewer of
 * some 6,000): at an 8k window the full declarations leave no room for the conversation.
 */
export const COMPACT_TOOLS_BELOW_TOKENS = 16_384;

/** Tools are declared to the model with exact schemas but no execute: the browser runs them. */
export function declaredTools(options: { compact?: boolean } = {}): ToolSet {
  if (!options.compact) return DECLARED_TOOLS;
  compactTools ??= compactDeclarations();
  return compactTools;
}

type DeclaredTool = (typeof TOOLS)[number];

function declaration(declared: DeclaredTool, inputSchema: unknown) {
  return tool<unknown, never>({ description: declared.description, inputSchema: inputSchema as never });
}

// Wrapped once, so each schema is converted to JSON schema once rather than on every model call.
const DECLARED_TOOLS: ToolSet = Object.fromEntries(
  TOOLS.map((declared) => [declared.name, declaration(declared, zodSchema(declared.inputSchema as ZodType))]),
);

let compactTools: ToolSet | undefined;

/** The same tools and checks, with shorter schemas (made from the full ones): the zod schema still validates each call. */
function compactDeclarations(): ToolSet {
  return Object.fromEntries(
    TOOLS.map((declared) => {
      const schema = declared.inputSchema as ZodType;
      const full = (DECLARED_TOOLS[declared.name].inputSchema as { jsonSchema: JSONSchema7 }).jsonSchema;
      const validate = (value: unknown) => {
        const parsed = schema.safeParse(value);
        return parsed.success
          ? { success: true as const, value: parsed.data }
          : { success: false as const, error: parsed.error };
      };
      return [declared.name, declaration(declared, jsonSchema(withoutFieldDescriptions(full), { validate }))];
    }),
  );
}
