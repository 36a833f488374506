import type { JsonObject, JsonValue } from '../protocol/json-value';
import type { ToolOutput } from '../protocol/tool-output';
import type { CatalogEntry, TargetCatalog } from '../protocol/target-catalog';
import { closestNames } from '../manifest/closest-names';
import { checkChanges, type ParameterChange } from '../manifest/parameter-validation';
import { flattenParameters, type TargetManifest } from '../protocol/target-manifest';
import { carriedValues } from './carried-values';
import { isToolName, toolInputSchemas, toolNames, type ToolName } from '../tools/tool-definitions';
import { unwrapValue } from '../protocol/target-wire';
import type { StageDriver } from './stage-driver';
import { errorText } from '../protocol/error-text';
import { issuesText } from '../protocol/issue-text';

export interface ToolRouterDependencies {
  catalog: TargetCatalog;
  stage: StageDriver;
  /** Values the user last had for a target, restored when it is opened again. */
  savedValues?(targetId: string): Promise<JsonObject | undefined>;
  /** The manifest the saved values were made under, when it may differ (an authored target's previous version). */
  previousManifest?(entry: CatalogEntry): Promise<TargetManifest | undefined>;
}

/** Values may arrive wrapped as `{ value: x }` by some layer; unwrap them before validating. */
function unwrapValues(input: unknown): unknown {
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

function failure(error: string): ToolOutput {
  return { ok: false, error };
}

export async function executeTool(
  name: string,
  input: unknown,
  dependencies: ToolRouterDependencies,
): Promise<ToolOutput> {
  if (!isToolName(name)) return failure(`Unknown tool "${name}". Available tools: ${toolNames.join(', ')}.`);
  const parsed = toolInputSchemas[name].safeParse(unwrapValues(input ?? {}));
  if (!parsed.success) {
    return failure(`Invalid input for ${name}: ${issuesText(parsed.error.issues, { root: 'input' })}.`);
  }
  try {
    return withTargetErrors(await runTool(name, parsed.data as never, dependencies), dependencies);
  } catch (error) {
    return failure(errorText(error));
  }
}

/** A result about a target also carries what that target reported on its own since the last one (say, a crash while drawing). */
function withTargetErrors(output: ToolOutput, { stage }: ToolRouterDependencies): ToolOutput {
  if (typeof output.targetId !== 'string') return output;
  const errors = stage.takeTargetErrors?.(output.targetId) ?? [];
  return errors.length > 0 ? { ...output, targetErrors: errors } : output;
}

async function runTool(
  name: ToolName,
  input: Record<string, unknown>,
  dependencies: ToolRouterDependencies,
): Promise<ToolOutput> {
  switch (name) {
    case 'listTargets':
      return listTargets(dependencies);
    case 'openTarget':
      return openTarget(String(input.targetId), dependencies);
    case 'getParameters':
      return getParameters(dependencies);
    case 'setParameter':
      return setParameters([{ param: String(input.param), value: input.value }], dependencies);
    case 'setParameters':
      return setParameters(input.changes as ParameterChange[], dependencies);
    case 'resetTarget':
      return resetTarget(dependencies);
    case 'askUser':
      return failure('askUser is answered by the user in the side panel, not by a target.');
    case 'showArtifact':
      return failure('showArtifact is recorded by the runtime, not by a target.');
    case 'runScript':
    case 'jobStatus':
    case 'cancelJob':
      return failure(`${name} is run by the runtime's job host, not by a target.`);
    case 'createTarget':
    case 'updateTarget':
      return failure(`${name} is run by the runtime, which keeps the versions of authored targets.`);
    case 'observePage':
    case 'actOnPage':
    case 'navigatePage':
    case 'pageBack':
    case 'callPageTool':
      return failure(`${name} is run by the runtime's page link, not by a target.`);
  }
}

async function listTargets({ catalog, stage }: ToolRouterDependencies): Promise<ToolOutput> {
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

async function openTarget(targetId: string, dependencies: ToolRouterDependencies): Promise<ToolOutput> {
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
async function openAndRestore(entry: CatalogEntry, dependencies: ToolRouterDependencies): Promise<void> {
  await dependencies.stage.open(entry);
  const saved = await dependencies.savedValues?.(entry.manifest.id);
  if (!saved) return;
  const payload = carriedValues(saved, entry.manifest, await dependencies.previousManifest?.(entry));
  await dependencies.stage.send(entry.manifest.id, { type: 'apply', payload });
}

/** The active target, opening the first one when none is active yet. */
async function activeTarget(dependencies: ToolRouterDependencies): Promise<{ entry: CatalogEntry; opened: boolean }> {
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

async function getParameters(dependencies: ToolRouterDependencies): Promise<ToolOutput> {
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

async function setParameters(changes: ParameterChange[], dependencies: ToolRouterDependencies): Promise<ToolOutput> {
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

async function resetTarget(dependencies: ToolRouterDependencies): Promise<ToolOutput> {
  const { entry } = await activeTarget(dependencies);
  const state = await dependencies.stage.send(entry.manifest.id, { type: 'reset' });
  const names = [...flattenParameters(entry.manifest).keys()];
  const values: JsonObject = {};
  for (const name of names) values[name] = state[name] ?? null;
  return { ok: true, targetId: entry.manifest.id, values };
}
