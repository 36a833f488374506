import { z } from 'zod';
import type { DemoCallRecord, DemoReply } from './demo-conversation';
import type { ScriptRequest } from './script-request';

const jobReportSchema = z.looseObject({
  ok: z.boolean(),
  jobId: z.string().optional(),
  state: z.string().optional(),
  result: z.unknown().optional(),
  output: z.string().optional(),
  reason: z.string().optional(),
  error: z.string().optional(),
});

const maxShown = 200;

export const scriptsTheDemoWrites =
  '"add up 1 to 100", "the squares of 1 to 10", or "run: <JavaScript>" (the code after a colon or in backticks)';

/** One step of a script request: run the code, then report the result line of the job. */
export function demoScriptReply(request: ScriptRequest, calls: readonly DemoCallRecord[]): DemoReply {
  if (request.kind === 'unsupported') {
    return text(
      `I am Splitbrain's offline demo, not a language model: I cannot write scripts beyond a few. Try ${scriptsTheDemoWrites}.`,
    );
  }
  const ran = calls.find((record) => record.name === 'runScript');
  if (!ran) return { kind: 'tool-calls', calls: [{ name: 'runScript', arguments: { code: request.code } }] };
  const report = jobReportSchema.safeParse(ran.output);
  if (!report.success) return text('The script ran, but its result was not one I know.');
  const { ok, state, result, output, reason, error } = report.data;
  if (!ok) return text(`The script did not finish: ${[state, reason, error].filter(Boolean).join(': ')}.`);
  if (result === undefined) return text(`The script is ${state ?? 'running'}; ask for job ${report.data.jobId} later.`);
  const printed = output ? ` It printed: ${clipped(output.trim().split('\n')[0])}` : '';
  return text(`Ran the script: the result is ${clipped(JSON.stringify(result))}.${printed}`);
}

function clipped(value: string): string {
  return value.length > maxShown ? `${value.slice(0, maxShown - 1)}…` : value;
}

function text(content: string): DemoReply {
  return { kind: 'text', text: content };
}
