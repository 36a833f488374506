import { checkValue, type ParameterValue } from '../manifest/parameter-validation';
import { unwrapValue } from '../protocol/target-wire';
import { flattenParameters, type TargetManifest } from '../protocol/target-manifest';

export type FormValues = Record<string, ParameterValue>;

/**
 * The manifest's parameters found in a state a target reported, with the right type.
 * Unknown names and values of the wrong type are left out: the state comes from the target.
 */
export function valuesFromState(
  manifest: TargetManifest,
  state: Record<string, unknown> | null | undefined,
): FormValues {
  const values: FormValues = {};
  if (!state) return values;
  for (const [name, { spec }] of flattenParameters(manifest)) {
    if (!Object.hasOwn(state, name)) continue;
    const check = checkValue(spec, state[name]);
    // An out-of-range value the target reports is shown as it is, not as the tool would clamp it.
    if (check.ok)
      values[name] = check.clampedFrom !== undefined ? (unwrapValue(state[name]) as ParameterValue) : check.value;
  }
  return values;
}

/** Defaults from the manifest, overlaid with what the target last reported. */
export function formValues(manifest: TargetManifest, state: Record<string, unknown> | null | undefined): FormValues {
  const values: FormValues = {};
  for (const [name, { spec }] of flattenParameters(manifest)) values[name] = spec.value;
  return { ...values, ...valuesFromState(manifest, state) };
}

export function sameValue(left: unknown, right: unknown): boolean {
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => item === right[index]);
  return left === right;
}
