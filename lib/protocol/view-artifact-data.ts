import { z } from 'zod';

export const VIEW_ARTIFACT_KINDS = ['table', 'chart', 'diff', 'plan', 'code'] as const;
export type ViewArtifactKind = (typeof VIEW_ARTIFACT_KINDS)[number];

/**
 * Bounds per kind. The data travels inside the event (and once more inside the tool call's input), so every
 * kind is bounded, and the whole of one version is at most `maxDataBytes` of JSON.
 */
export const VIEW_ARTIFACT_LIMITS = {
  maxDataBytes: 128 * 1024,
  title: 200,
  table: { columns: 30, rows: 500, cell: 500 },
  chart: { series: 10, points: 500, label: 100 },
  diff: { text: 60_000, patch: 120_000 },
  plan: { steps: 50, title: 300, detail: 2000 },
  code: { text: 100_000, language: 40 },
} as const;

const { table, chart, diff, plan, code } = VIEW_ARTIFACT_LIMITS;

/** Cross-field checks run even when a field is wrong, so the model hears every problem at once; they read defensively. */
const everyProblem = () => true;

const label = (max: number) => z.string().min(1).max(max);

const tableColumn = z.strictObject({
  label: label(table.cell),
  type: z.enum(['text', 'number']).optional().describe('"number" aligns right and sorts numerically.'),
  unit: z.string().max(20).optional(),
});
const tableCell = z.union([z.string().max(table.cell), z.number(), z.boolean(), z.null()]);

export const tableDataSchema = z
  .strictObject({
    columns: z.array(tableColumn).min(1).max(table.columns),
    rows: z.array(z.array(tableCell).max(table.columns)).max(table.rows).describe('Each row: one cell per column.'),
  })
  .superRefine(
    (value, context) => {
      if (!Array.isArray(value?.columns) || !Array.isArray(value.rows)) return;
      value.rows.forEach((row, index) => {
        if (Array.isArray(row) && row.length !== value.columns.length)
          context.addIssue({
            code: 'custom',
            path: ['rows', index],
            message: `has ${row.length} cells; the table has ${value.columns.length} columns`,
          });
      });
    },
    { when: everyProblem },
  );

export const chartDataSchema = z
  .strictObject({
    type: z.enum(['line', 'bar']),
    x: z.strictObject({
      label: z.string().max(chart.label).optional(),
      values: z
        .array(z.union([z.string().max(chart.label), z.number()]))
        .min(1)
        .max(chart.points),
    }),
    y: z
      .strictObject({ label: z.string().max(chart.label).optional(), unit: z.string().max(20).optional() })
      .optional(),
    series: z
      .array(
        z.strictObject({
          name: label(chart.label),
          values: z.array(z.number().finite().nullable()).max(chart.points),
        }),
      )
      .min(1)
      .max(chart.series),
  })
  .superRefine(
    (value, context) => {
      if (!Array.isArray(value?.series) || !Array.isArray(value.x?.values)) return;
      value.series.forEach((series, index) => {
        if (Array.isArray(series?.values) && series.values.length !== value.x.values.length)
          context.addIssue({
            code: 'custom',
            path: ['series', index, 'values'],
            message: `has ${series.values.length} values; x has ${value.x.values.length}`,
          });
      });
    },
    { when: everyProblem },
  );

export const diffDataSchema = z.union([
  z.strictObject({
    before: z.string().max(diff.text),
    after: z.string().max(diff.text),
    filename: z.string().max(300).optional(),
  }),
  z.strictObject({
    patch: z.string().min(1).max(diff.patch).describe('A unified diff (as `diff -u` or `git diff` prints it).'),
  }),
]);

export const PLAN_STEP_STATES = ['pending', 'in-progress', 'done', 'failed', 'skipped'] as const;

export const planDataSchema = z.strictObject({
  steps: z
    .array(
      z.strictObject({
        title: label(plan.title),
        state: z.enum(PLAN_STEP_STATES),
        detail: z.string().max(plan.detail).optional(),
      }),
    )
    .min(1)
    .max(plan.steps),
});

export const codeDataSchema = z.strictObject({
  language: z
    .string()
    .max(code.language)
    .regex(/^[a-z0-9+#-]*$/, 'lower-case language name, e.g. "ts", "python"'),
  text: z.string().max(code.text),
  filename: z.string().max(300).optional(),
});

export const viewArtifactDataSchemas = {
  table: tableDataSchema,
  chart: chartDataSchema,
  diff: diffDataSchema,
  plan: planDataSchema,
  code: codeDataSchema,
} as const;

export type TableData = z.infer<typeof tableDataSchema>;
export type ChartData = z.infer<typeof chartDataSchema>;
export type DiffData = z.infer<typeof diffDataSchema>;
export type PlanData = z.infer<typeof planDataSchema>;
export type CodeData = z.infer<typeof codeDataSchema>;

export type ViewArtifactData =
  | { kind: 'table'; data: TableData }
  | { kind: 'chart'; data: ChartData }
  | { kind: 'diff'; data: DiffData }
  | { kind: 'plan'; data: PlanData }
  | { kind: 'code'; data: CodeData };
