import type { DemoSchema } from './demo-tool-results';
import { foreignNames } from './foreign-names';
import { interpretRequest } from './interpret-request';

/** A clause the active target did not understand, with the other targets that would, by these parameters. */
export interface ClauseElsewhere {
  readonly clause: string;
  readonly targets: readonly DemoSchema[];
  readonly parameters: readonly string[];
}

/** Which of `known` (the active target left out) understand each clause: "slow the tempo to 90" is the synth's. */
export function clausesElsewhere(
  clauses: readonly string[],
  active: DemoSchema,
  known: readonly DemoSchema[],
): ClauseElsewhere[] {
  const others = known.filter((schema) => schema.targetId !== active.targetId);
  return clauses.flatMap((clause) => {
    const readings = others.flatMap((other) => {
      const rest = [active, ...others.filter((schema) => schema !== other)];
      const plan = interpretRequest(clause, other.parameters, { foreign: foreignNames(other, rest) });
      const changed = plan.changes.map((change) => change.param);
      const named = [
        ...plan.missing.map((entry) => entry.parameter.name),
        ...plan.ambiguous.flatMap((entry) => entry.candidates.map((parameter) => parameter.name)),
      ];
      return changed.length + named.length > 0 ? [{ target: other, changed, names: [...changed, ...named] }] : [];
    });
    // "use a log scale" names a scale on three targets, and gives a value only on the chart's.
    const withValues = readings.filter((reading) => reading.changed.length > 0);
    const chosen = withValues.length > 0 ? withValues : readings;
    if (chosen.length === 0) return [];
    const parameters = [...new Set(chosen.flatMap((reading) => reading.names))];
    return [{ clause, targets: chosen.map((reading) => reading.target), parameters }];
  });
}
