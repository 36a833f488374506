import type { ParameterValue } from '../manifest/parameter-validation';
import { flattenParameters, type TargetManifest } from '../protocol/target-manifest';
import { formValues, sameValue, valuesFromState, type FormValues } from './form-values';
import { describeResetOutput, describeSetOutput, formatParameterValue, type FieldResult } from './parameter-outcome';

/** The toolbar form of the active target: what it shows, which edits are still on their way, and their results. */
export interface ParameterFormState {
  targetId: string;
  manifest: TargetManifest;
  values: FormValues;
  /** Parameters with a local edit not yet answered: values from elsewhere do not overwrite them meanwhile. */
  editing: Record<string, true>;
  results: Record<string, FieldResult>;
  /** Bumped each time a parameter changes from elsewhere (the model, the target), to highlight it. */
  remoteChanges: Record<string, number>;
  notice?: FieldResult;
  /** A reset of this popup's own is on its way: the values it brings are not "changed elsewhere". */
  resetting?: true;
}

export type ParameterFormAction =
  | { type: 'edit'; param: string; value: ParameterValue }
  | { type: 'settled'; param: string; output: unknown }
  | { type: 'send-failed'; param: string; error: string }
  | { type: 'remote-state'; targetId: string; state: Record<string, unknown> }
  | { type: 'reset-started' }
  | { type: 'reset-done'; output: unknown }
  | { type: 'notice'; notice: FieldResult | undefined };

export function initialFormState(
  targetId: string,
  manifest: TargetManifest,
  state: Record<string, unknown> | null | undefined,
): ParameterFormState {
  return { targetId, manifest, values: formValues(manifest, state), editing: {}, results: {}, remoteChanges: {} };
}

function without<TRecord extends object>(record: TRecord, key: keyof TRecord & string): TRecord {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

export function reduceParameterForm(state: ParameterFormState, action: ParameterFormAction): ParameterFormState {
  switch (action.type) {
    case 'edit':
      return {
        ...state,
        values: { ...state.values, [action.param]: action.value },
        editing: { ...state.editing, [action.param]: true },
      };
    case 'settled':
      return settle(state, action.param, action.output);
    case 'send-failed':
      return {
        ...state,
        editing: without(state.editing, action.param),
        results: { ...state.results, [action.param]: { tone: 'error', message: action.error } },
      };
    case 'remote-state':
      return action.targetId === state.targetId ? applyRemote(state, action.state) : state;
    case 'reset-started':
      return { ...state, resetting: true, notice: undefined };
    case 'reset-done':
      return reset(without(state, 'resetting'), action.output);
    case 'notice':
      return { ...without(state, 'resetting'), notice: action.notice };
  }
}

function settle(state: ParameterFormState, param: string, output: unknown): ParameterFormState {
  const spec = flattenParameters(state.manifest).get(param)?.spec;
  if (!spec) return state;
  const outcome = describeSetOutput(param, spec, output);
  const values = outcome.applied !== undefined ? { ...state.values, [param]: outcome.applied } : state.values;
  return {
    ...state,
    values,
    editing: without(state.editing, param),
    results: { ...state.results, [param]: outcome.result },
  };
}

function applyRemote(state: ParameterFormState, reported: Record<string, unknown>): ParameterFormState {
  const incoming = valuesFromState(state.manifest, reported);
  const values = { ...state.values };
  const remoteChanges = { ...state.remoteChanges };
  const results = { ...state.results };
  let changed = false;
  for (const [param, value] of Object.entries(incoming)) {
    if (state.editing[param] || sameValue(values[param], value)) continue;
    values[param] = value;
    changed = true;
    if (state.resetting) continue;
    remoteChanges[param] = (remoteChanges[param] ?? 0) + 1;
    const spec = flattenParameters(state.manifest).get(param)!.spec;
    results[param] = { tone: 'info', message: `Changed elsewhere to ${formatParameterValue(value, spec)}.` };
  }
  return changed ? { ...state, values, remoteChanges, results } : state;
}

function reset(state: ParameterFormState, output: unknown): ParameterFormState {
  const outcome = describeResetOutput(output);
  if (!outcome.values) return { ...state, notice: outcome.result };
  return {
    ...state,
    values: formValues(state.manifest, outcome.values),
    editing: {},
    results: {},
    notice: outcome.result,
  };
}
