/**
 * `npm run test:firefox-lint`: `web-ext lint` on the Firefox build must report no error, and every warning must be
 * one of those explained below (all in bundled libraries, none reachable with page-controlled input).
 */
import { execFileSync } from 'node:child_process';
import { z } from 'zod';

const explained = [
  {
    code: 'DANGEROUS_EVAL',
    file: /^(background\.js|chunks\/browser-polyfill-.*\.js)$/,
    why: "zod's `new Function('')` probe, never run: entrypoints/shared/zod-setup.ts sets `jitless` first",
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    file: /^chunks\/jsx-runtime-.*\.js$/,
    why: "React DOM's own innerHTML (dangerouslySetInnerHTML support, which no component uses; its <script> shim)",
  },
  {
    code: 'UNSAFE_VAR_ASSIGNMENT',
    file: /^chunks\/sidepanel-.*\.js$/,
    why:
      "micromark's entity decoder (`&name;` into a detached element), micromark's tokenizer `document().write` " +
      "(not the DOM's), and highlight.js's unused highlightElement reading innerHTML",
  },
];

const reportSchema = z.object({
  summary: z.object({ errors: z.number(), warnings: z.number() }),
  errors: z.array(z.object({ code: z.string(), message: z.string(), file: z.string().optional() })),
  warnings: z.array(z.object({ code: z.string(), message: z.string(), file: z.string().optional() })),
});

const output = execFileSync(
  'npx',
  ['web-ext', 'lint', '--source-dir', '.output/firefox-mv2', '--self-hosted', '--output', 'json'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const report = reportSchema.parse(JSON.parse(output));
const unexplained = report.warnings.filter(
  (warning) => !explained.some((entry) => entry.code === warning.code && entry.file.test(warning.file ?? '')),
);
for (const problem of [...report.errors, ...unexplained])
  console.error(`${problem.code} ${problem.file ?? ''}: ${problem.message}`);
console.log(
  `web-ext lint: ${report.summary.errors} errors, ${report.summary.warnings} warnings (${unexplained.length} unexplained)`,
);
if (report.errors.length > 0 || unexplained.length > 0) process.exit(1);
