import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import type { CatalogEntry, TargetCatalog } from '../protocol/target-catalog';
import { closestNames } from '../manifest/closest-names';
import { checkChanges, type ParameterChange } from '../manifest/parameter-validation';
import { flattenParameters, type TargetManifest } from '../protocol/target-manifest';
import { carriedValues } from './carried-values';
import { unwrapValue } from '../protocol/target-wire';
import type { StageDriver } from './stage-driver';

/** What a target tool acts through: the catalog of its conversations and one stage. */
export interface TargetToolContext {
  catalog: TargetCatalog;
  stage: StageDriver;
  /** Values the user last had for a target, restored when it is opened again. */
  savedValues?(targetId: string): Promise<JsonObject | undefined>;
  /** The manifest the saved values were made under, when it may differ (an authored target's previous version). */
  previousManifest?(entry: CatalogEntry): Promise<TargetManifest | undefined>;
}

/** Values may arrive wrapped as `{ value: x }` by some layer; unwrap them before validating. */
export function unwrapValues(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  return {
    ...record,
    ...('value' in record ? { value: unwrapValue(record.value) } : {}),
    ...(Array.isArray(record.changes)
      ? {
          changes: record.changes.map((change: unknown) =>
            change && typeof change === 'object' && 'value' in change
              ? { ...change, value: unwrapValue((change as { value: unknown }).value) }
              : change,
          ),
        }
      : {}),
  };
}

export function failure(error: string): ToolOutput {
  return { ok: false, error };
}

/** A result about a target also carries what that target reported on its own since the last one (say, a crash while drawing). */
export function withTargetErrors(output: ToolOutput, { stage }: TargetToolContext): ToolOutput {
  if (typeof output.targetId !== 'string') return output;
  const errors = stage.takeTargetErrors?.(output.targetId) ?? [];
  return errors.length > 0 ? { ...output, targetErrors: errors } : output;
}

export async function listTargets({ catalog, stage }: TargetToolContext): Promise<ToolOutput> {
  const active = await stage.activeTargetId();
  return {
    ok: true,
    targets: catalog.targets.map((entry) => ({
      id: entry.manifest.id,
      title: entry.manifest.title,
      description: entry.manifest.description,
      active: entry.manifest.id === active,
      ...('artifact' in entry ? { madeInThisConversation: true, version: entry.artifact.version } : {}),
    })),
  };
}

function findTarget(catalog: TargetCatalog, targetId: string): CatalogEntry | undefined {
  return catalog.targets.find((entry) => entry.manifest.id === targetId);
}

export async function openTarget(targetId: string, dependencies: TargetToolContext): Promise<ToolOutput> {
  const { catalog } = dependencies;
  const entry = findTarget(catalog, targetId);
  if (!entry) {
    const ids = catalog.targets.map((target) => target.manifest.id);
    const close = closestNames(targetId, ids);
    return failure(
      `Target "${targetId}" not found.${close.length ? ` Did you mean "${close[0]}"?` : ''} Known targets: ${ids.join(', ')}.`,
    );
  }
  await openAndRestore(entry, dependencies);
  return { ok: true, targetId, title: entry.manifest.title, next: 'Call getParameters to read its parameters.' };
}

/** Opens a target and re-applies the values it had when it was last used, dropping any that no longer fit. */
async function openAndRestore(entry: CatalogEntry, dependencies: TargetToolContext): Promise<void> {
  await dependencies.stage.open(entry);
  const saved = await dependencies.savedValues?.(entry.manifest.id);
  if (!saved) return;
  const payload = carriedValues(saved, entry.manifest, await dependencies.previousManifest?.(entry));
  await dependencies.stage.send(entry.manifest.id, { type: 'apply', payload });
}

/** The active target, opening the first one when none is active yet. */
async function activeTarget(dependencies: TargetToolContext): Promise<{ entry: CatalogEntry; opened: boolean }> {
  const { catalog, stage } = dependencies;
  const activeId = await stage.activeTargetId();
  const active = activeId ? findTarget(catalog, activeId) : undefined;
  if (active) return { entry: active, opened: false };
  const fallback =
    (catalog.defaultTargetId ? findTarget(catalog, catalog.defaultTargetId) : undefined) ?? catalog.targets[0];
  if (!fallback) throw new Error('No targets are installed.');
  await openAndRestore(fallback, dependencies);
  return { entry: fallback, opened: true };
}

export async function getParameters(dependencies: TargetToolContext): Promise<ToolOutput> {
  const { entry, opened } = await activeTarget(dependencies);
  const state = await dependencies.stage.send(entry.manifest.id, { type: 'read' });
  const parameters: Record<string, Record<string, JsonValue>> = {};
  for (const [group, specs] of Object.entries(entry.manifest.params)) {
    parameters[group] = {};
    for (const [name, spec] of Object.entries(specs)) {
      const { value: defaultValue, ...schema } = spec;
      parameters[group][name] = { ...schema, default: defaultValue, value: state[name] ?? defaultValue } as JsonValue;
    }
  }
  return {
    ok: true,
    targetId: entry.manifest.id,
    title: entry.manifest.title,
    ...(opened ? { note: `No target was active; opened "${entry.manifest.id}".` } : {}),
    parameters,
  };
}

export async function setParameters(changes: ParameterChange[], dependencies: TargetToolContext): Promise<ToolOutput> {
  const { entry } = await activeTarget(dependencies);
  const check = checkChanges(entry.manifest, changes);
  if (!check.ok) return { ok: false, targetId: entry.manifest.id, error: check.error };
  const payload: JsonObject = {};
  for (const change of check.changes) payload[change.param] = change.value;
  const state = await dependencies.stage.send(entry.manifest.id, { type: 'apply', payload });
  const applied: JsonObject = {};
  for (const change of check.changes) applied[change.param] = state[change.param] ?? null;
  const clamped = check.changes
    .filter((change) => change.clampedFrom !== undefined)
    .map((change) => ({
      param: change.param,
      requested: change.clampedFrom as JsonValue,
      applied: applied[change.param],
    }));
  return { ok: true, targetId: entry.manifest.id, applied, ...(clamped.length ? { clamped } : {}) };
}

export async function resetTarget(dependencies: TargetToolContext): Promise<ToolOutput> {
  const { entry } = await activeTarget(dependencies);
  const state = await dependencies.stage.send(entry.manifest.id, { type: 'reset' });
  const names = [...flattenParameters(entry.manifest).keys()];
  const values: JsonObject = {};
  for (const name of names) values[name] = state[name] ?? null;
  return { ok: true, targetId: entry.manifest.id, values };
}
