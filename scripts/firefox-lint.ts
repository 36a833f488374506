/**
 * `npm run test:firefox-lint`: `web-ext lint` on the Firefox build must report no error, and every warning must be
 * one of those explained below (all in bundled libraries, none reachable with page-controlled input).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * Each warning is matched by the code around the place it points at, not by the chunk's file name: how Vite splits
 * the bundle into chunks changes whenever an entrypoint's imports do.
 */
const explained = [
  {
    code: 'DANGEROUS_EVAL',
    context: /try\{return Function\(``\),!0\}/,
    why: "zod's `new Function('')` probe, never run: entrypoints/shared/zod-setup.ts sets `jitless` first",
  },
  {
    code: 'DANGEROUS_EVAL',
    context: /let \w+=Function\(`\$\{\w+\.default\.self\}`,`\$\{\w+\.default\.scope\}`,\w+\)/,
    why: "Ajv's schema compiler, bundled with @modelcontextprotocol/sdk's Client, never run: lib/mcp/mcp-connection.ts hands the client its own jsonSchemaValidator",
  },
  {
    code: 'DANGEROUS_EVAL',
    context: /\(\w+=\w+\.factory\)\?\(Function\(`return `\+\w+\)\(\)\(self\)/,
    why: "FlexSearch's worker message handler, only the source of a worker made for an index with `worker: true`, which lib/search/conversation-search.ts never asks for",
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    context: /\.__html!==\w+&&\(\w+\.innerHTML=\w+\)|\.innerHTML=`<script><\\\/script>`/,
    why: "React DOM's own innerHTML (dangerouslySetInnerHTML support, which no component uses; its <script> shim)",
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    context: /createElement\(`i`\);function \w+\(\w+\)\{let \w+=`&`\+\w+\+`;`;\w+\.innerHTML=/,
    why: "micromark's entity decoder: `&name;` into a detached element, read back as text",
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    context: /\.document\(\)\.write\(/,
    why: "micromark's tokenizer `document().write`, its own method, not the DOM's",
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    context: /\.dataset\.highlighted=`yes`/,
    why: "highlight.js's highlightElement, which the panel never calls (it highlights strings through lowlight)",
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    context:
      /importScripts\(\w+\.toString\(\)\)\}catch\(\w+\)\{if\(!\(\w+ instanceof TypeError\)\)throw \w+;\{let \w+=self\.import;/,
    why: "MediaPipe's wasm loader, bundled with @browser-ai/core; the on-device kind uses only Chrome's Prompt API and is not offered in Firefox",
  },
];

const SOURCE_DIR = '.output/firefox-mv2';

const reportSchema = z.object({
  summary: z.object({ errors: z.number(), warnings: z.number() }),
  errors: z.array(z.object({ code: z.string(), message: z.string(), file: z.string().optional() })),
  warnings: z.array(
    z.object({
      code: z.string(),
      message: z.string(),
      file: z.string().optional(),
      line: z.number().optional(),
      column: z.number().optional(),
    }),
  ),
});

const output = execFileSync(
  'npx',
  ['web-ext', 'lint', '--source-dir', SOURCE_DIR, '--self-hosted', '--output', 'json'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const report = reportSchema.parse(JSON.parse(output));
/** The code around where a warning points, read from the build. */
function contextOf(warning: z.infer<typeof reportSchema>['warnings'][number]): string {
  if (!warning.file || warning.line === undefined) return '';
  const line = readFileSync(join(SOURCE_DIR, warning.file), 'utf8').split('\n')[warning.line - 1] ?? '';
  const column = warning.column ?? 0;
  return line.slice(Math.max(0, column - 200), column + 200);
}

const unexplained = report.warnings.filter(
  (warning) => !explained.some((entry) => entry.code === warning.code && entry.context.test(contextOf(warning))),
);
for (const problem of [...report.errors, ...unexplained])
  console.error(`${problem.code} ${problem.file ?? ''}: ${problem.message}`);
console.log(
  `web-ext lint: ${report.summary.errors} errors, ${report.summary.warnings} warnings (${unexplained.length} unexplained)`,
);
if (report.errors.length > 0 || unexplained.length > 0) process.exit(1);
