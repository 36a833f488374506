import { resolve } from 'node:path';
import type { TargetManifest } from '../../lib/protocol/target-manifest';
import { discoverTargets } from '../discover-targets';
import type { DemoSchema } from './demo-tool-results';

const targetsFolder = resolve(import.meta.dirname, '../../targets');

/** A manifest as getParameters would report it with every value at its default. */
export function demoSchemaOfManifest(manifest: TargetManifest): DemoSchema {
  const parameters = Object.entries(manifest.params).flatMap(([group, specs]) =>
    Object.entries(specs).map(([name, spec]) => ({ ...spec, default: spec.value, name, group })),
  );
  return { targetId: manifest.id, title: manifest.title, parameters };
}

/**
 * The built-in targets of `targets/`, which the demo server knows beside what the tools report, only to say which
 * target has a parameter the open one lacks ("the Step synthesizer has tempo").
 */
export function builtInDemoTargets(root: string = targetsFolder): DemoSchema[] {
  return discoverTargets(root).map((target) => demoSchemaOfManifest(target.entry.manifest));
}
