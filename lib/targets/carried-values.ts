import { checkChanges } from '../manifest/parameter-validation';
import { flattenParameters, type TargetManifest } from '../protocol/target-manifest';
import type { JsonObject } from '../protocol/json-value';

/**
 * The saved values a target gets back when it opens: each parameter it still has, with a value still valid. With
 * the manifest the values were made under (an authored target's previous version), a parameter must also have
 * kept its type: a free-text string that happens to match a new enum option is not the same setting.
 */
export function carriedValues(saved: JsonObject, manifest: TargetManifest, previous?: TargetManifest): JsonObject {
  const specs = flattenParameters(manifest);
  const previousSpecs = previous ? flattenParameters(previous) : undefined;
  const carried: JsonObject = {};
  for (const [param, value] of Object.entries(saved)) {
    const known = specs.get(param);
    if (!known) continue;
    if (previousSpecs && previousSpecs.get(param)?.spec.type !== known.spec.type) continue;
    const check = checkChanges(manifest, [{ param, value }]);
    if (check.ok) for (const change of check.changes) carried[change.param] = change.value;
  }
  return carried;
}
