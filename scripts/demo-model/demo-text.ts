import type { ClauseElsewhere } from './clauses-elsewhere';
import type { DemoParameter, DemoSchema, DemoTarget } from './demo-tool-results';
import type { RequestPlan } from './interpret-request';
import { listOf } from './parameter-value';

/** A parameter's name as words: `show_vectors` → "show vectors". */
export function spoken(name: string): string {
  return name.replace(/_/g, ' ');
}

export function formatValue(parameter: DemoParameter | undefined, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  if (typeof value === 'number') return parameter?.unit ? `${value} ${parameter.unit}` : String(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "speed 8 → 12 m/s" for each applied value, from the values the target reported. */
export function changeSummary(
  schema: DemoSchema,
  applied: Record<string, unknown>,
  clamped: readonly string[],
): string {
  return Object.entries(applied)
    .map(([name, value]) => {
      const parameter = schema.parameters.find((candidate) => candidate.name === name);
      const before = parameter ? `${formatValue(undefined, parameter.value)} → ` : '';
      const limit = clamped.includes(name) ? ' (as far as it goes)' : '';
      return `${spoken(name)} ${before}${formatValue(parameter, value)}${limit}`;
    })
    .join(', ');
}

function describeParameter(parameter: DemoParameter): string {
  const name = spoken(parameter.name);
  const now = formatValue(parameter, parameter.value);
  switch (parameter.type) {
    case 'boolean':
      return `${name} (on or off, now ${now})`;
    case 'enum':
      return `${name} (${listOf(parameter.options ?? [])}; now ${now})`;
    case 'color':
      return `${name} (a colour, now ${now})`;
    case 'array':
      return `${name} (${parameter.length} numbers${parameter.unit ? ` in ${parameter.unit}` : ''})`;
    case 'string':
      return `${name} (text)`;
    default:
      return `${name} (${parameter.min ?? '…'}–${parameter.max ?? '…'}${parameter.unit ? ` ${parameter.unit}` : ''}, now ${parameter.value})`;
  }
}

export function describeTarget(schema: DemoSchema): string {
  const parameters = schema.parameters.map(describeParameter).join('; ');
  return `On ${schema.title} you can change: ${parameters}. Try, for example, ${examples(schema)}.`;
}

/** Three requests the demo understands on this target, made from its own parameters. */
export function examples(schema: DemoSchema): string {
  const found: string[] = [];
  const numeric = schema.parameters.find((parameter) => parameter.type === 'number' || parameter.type === 'integer');
  if (numeric) found.push(`"make the ${spoken(numeric.name)} higher"`);
  const toggle = schema.parameters.find((parameter) => parameter.type === 'boolean');
  if (toggle) found.push(`"turn ${spoken(toggle.name)} ${toggle.value === true ? 'off' : 'on'}"`);
  const choice = schema.parameters.find(
    (parameter) => parameter.type === 'enum' && (parameter.options?.length ?? 0) > 1,
  );
  if (choice) {
    const other = choice.options?.find((option) => option !== choice.value) ?? '';
    found.push(`"set ${spoken(choice.name)} to ${other}"`);
  }
  if (schema.parameters.some((parameter) => parameter.type === 'color')) found.push('"use a warm colour"');
  found.push('"reset"', '"what can I change here?"');
  return listOf(found.slice(0, 4));
}

export function declineText(request: string, schema: DemoSchema | undefined): string {
  const quoted = request.trim().length > 80 ? `${request.trim().slice(0, 77)}…` : request.trim();
  const intro = `I did not understand "${quoted}". I am Splitbrain's offline demo, not a language model: I only match your words to the parameters of the open target.`;
  return schema ? `${intro} On ${schema.title} you could say ${examples(schema)}.` : intro;
}

/** What the reply says about the clauses it did not act on; `elsewhere` are those another target understands. */
export function unresolvedText(
  plan: RequestPlan,
  schema: DemoSchema,
  elsewhere: readonly ClauseElsewhere[] = [],
): string[] {
  const notes: string[] = [];
  for (const { clause, candidates } of plan.ambiguous) {
    notes.push(`"${clause}" could mean ${listOf(candidates.map((parameter) => spoken(parameter.name)))}: which one?`);
  }
  for (const { parameter, reason } of plan.missing) notes.push(`For ${spoken(parameter.name)}, ${reason}.`);
  const unknown = plan.unknown.filter((clause) => !elsewhere.some((entry) => entry.clause === clause));
  if (unknown.length > 0) {
    notes.push(`I did not understand ${listOf(unknown.map((clause) => `"${clause}"`))} on ${schema.title}.`);
  }
  notes.push(...elsewhereText(elsewhere, schema));
  return notes;
}

/**
 * One sentence per target that has what the open one lacks: 'I did not understand "slow the tempo to 90":
 * Particle field has no tempo, Step synthesizer has it (say "open the Step synthesizer and slow the tempo to 90").'
 */
function elsewhereText(elsewhere: readonly ClauseElsewhere[], schema: DemoSchema): string[] {
  const byTargets = new Map<string, ClauseElsewhere[]>();
  for (const entry of elsewhere) {
    const key = entry.targets.map((target) => target.targetId).join(' ');
    byTargets.set(key, [...(byTargets.get(key) ?? []), entry]);
  }
  return [...byTargets.values()].map((entries) => {
    const clauses = entries.map((entry) => entry.clause);
    const names = [...new Set(entries.flatMap((entry) => entry.parameters))].map(spoken);
    const titles = entries[0]!.targets.map((target) => target.title);
    const holders =
      titles.length === 1 ? `${titles[0]} has` : `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)} have`;
    const them = names.length === 1 ? 'it' : names.length === 2 ? 'both' : 'them';
    const suggestion = `open the ${titles[0]} and ${clauses.join(' and ')}`;
    return `I did not understand ${listOf(clauses.map((clause) => `"${clause}"`))}: ${schema.title} has no ${listOf(names)}, ${holders} ${them} (say "${suggestion}").`;
  });
}

export function targetListText(targets: readonly DemoTarget[]): string {
  const names = targets.map((target) => `${target.title} (${target.id}${target.active ? ', open' : ''})`);
  return `The targets here: ${listOf(names)}. Say "open the …" to switch.`;
}
