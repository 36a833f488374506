import type { DemoParameter } from './demo-tool-results';
import { foreignNaming, noForeignNames, type ForeignNames } from './foreign-names';
import { matchParameter } from './match-parameter';
import { valueFromClause } from './parameter-value';
import { requestWords, stem, stopWords } from './request-words';

export interface DemoChange {
  readonly param: string;
  readonly value: unknown;
}

/** What a request asks of the active target. */
export interface RequestPlan {
  readonly resetAll: boolean;
  readonly describe: boolean;
  readonly changes: readonly DemoChange[];
  /** Clauses no parameter matched. */
  readonly unknown: readonly string[];
  /** Clauses that could mean several parameters. */
  readonly ambiguous: readonly { clause: string; candidates: readonly DemoParameter[] }[];
  /** Clauses that name a parameter but no value the demo could read. */
  readonly missing: readonly { parameter: DemoParameter; reason: string }[];
}

const describePattern =
  /\b(what can (i|you)|what (else )?(is there|can be)|help\b|what are the (parameters|options|settings)|which (parameters|settings)|list (the )?(parameters|settings)|what do you (understand|do)|what .*\bchange\b)/;
const resetPattern = /\b(reset|restore|defaults?|start over)\b/;
const openPattern = /\b(open|switch to|go to|load|show me|bring up)\b/;

export interface RequestContext {
  /** The words that named a target ("the 3D scene"): left out, so that "3" is no value and "particles" no parameter. */
  readonly targetWords?: readonly string[];
  /** The named target's id and title: "open the Step synthesizer" is only an opening, "step" included. */
  readonly targetTitle?: string;
  /** How other targets name their parameters (`foreignNames`): a clause with one changes nothing here unless it names a parameter of this target too. */
  readonly foreign?: ForeignNames;
}

/** Reads a request against the active target's parameters. */
export function interpretRequest(
  request: string,
  parameters: readonly DemoParameter[],
  { targetWords = [], targetTitle = '', foreign = noForeignNames }: RequestContext = {},
): RequestPlan {
  const plan = {
    resetAll: false,
    describe: false,
    changes: [] as DemoChange[],
    unknown: [] as string[],
    ambiguous: [] as { clause: string; candidates: readonly DemoParameter[] }[],
    missing: [] as { parameter: DemoParameter; reason: string }[],
  };
  if (describePattern.test(request.toLowerCase())) return { ...plan, describe: true };
  for (const original of clausesOf(withoutWords(request, targetWords))) {
    const clause = original.toLowerCase();
    if (isOnlyOpening(clause, targetTitle)) continue;
    const match = matchParameter(clause.replace(resetPattern, ' '), original, parameters, foreign);
    if (resetPattern.test(clause)) {
      if (match.kind === 'found') plan.changes.push({ param: match.parameter.name, value: match.parameter.default });
      else if (foreignNaming(clause, foreign).named) plan.unknown.push(original.trim());
      else plan.resetAll = true;
      continue;
    }
    if (match.kind === 'none') plan.unknown.push(original.trim());
    if (match.kind === 'ambiguous') plan.ambiguous.push({ clause: original.trim(), candidates: match.candidates });
    if (match.kind !== 'found') continue;
    const outcome = valueFromClause(match.parameter, clause, original);
    if (outcome.kind === 'value') plan.changes.push({ param: match.parameter.name, value: outcome.value });
    else plan.missing.push({ parameter: match.parameter, reason: outcome.reason });
  }
  return { ...plan, changes: lastChangePerParameter(plan.changes) };
}

/** Splits at "and", "then", ";" and at commas that do not sit between numbers ("0, 5, 10" stays whole). */
function clausesOf(request: string): string[] {
  return request
    .split(/\s*(?:;|\band then\b|\bthen\b|\band\b|\balso\b|,(?!\s*-?\d))\s*/i)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0 && requestWords(clause).some((word) => !stopWords.has(stem(word))));
}

/** A clause such as "open the 3D scene" once its target words are gone: only an opening verb and the title are left. */
function isOnlyOpening(clause: string, targetTitle: string): boolean {
  if (!openPattern.test(clause)) return false;
  const title = new Set(requestWords(targetTitle).map(stem));
  const rest = requestWords(clause.replace(openPattern, ' ')).filter(
    (word) => !stopWords.has(stem(word)) && !title.has(stem(word)),
  );
  return rest.length === 0;
}

function withoutWords(request: string, words: readonly string[]): string {
  if (words.length === 0) return request;
  const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return request.replace(new RegExp(`\\b(${escaped.join('|')})\\b`, 'gi'), ' ');
}

function lastChangePerParameter(changes: readonly DemoChange[]): DemoChange[] {
  const byName = new Map<string, DemoChange>();
  for (const change of changes) byName.set(change.param, change);
  return [...byName.values()];
}
