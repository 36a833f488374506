import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeManifestError, targetManifestSchema } from '../lib/protocol/target-manifest';
import type { BuiltInCatalogEntry } from '../lib/protocol/target-catalog';

export interface DiscoveredTarget {
  entry: BuiltInCatalogEntry;
  folder: string;
  files: string[];
}

function listFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

function readManifest(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${file}: not valid JSON: ${(error as Error).message}`);
  }
}

/** The script the build writes into each target folder, so its page can read its own manifest without a fetch. */
export const MANIFEST_SCRIPT = 'manifest.js';

/** Every folder of `root` with a manifest.json is a target; a broken manifest fails with the file and field. */
export function discoverTargets(root: string): DiscoveredTarget[] {
  if (!existsSync(root)) return [];
  const targets: DiscoveredTarget[] = [];
  for (const name of readdirSync(root).sort()) {
    const folder = join(root, name);
    const manifestFile = join(folder, 'manifest.json');
    if (!statSync(folder).isDirectory() || !existsSync(manifestFile)) continue;
    const parsed = targetManifestSchema.safeParse(readManifest(manifestFile));
    if (!parsed.success)
      throw new Error(`Broken target manifest:\n${describeManifestError(manifestFile, parsed.error)}`);
    if (parsed.data.id !== name)
      throw new Error(`${manifestFile}: id: "${parsed.data.id}" must equal the folder name "${name}"`);
    if (!existsSync(join(folder, parsed.data.entry)))
      throw new Error(`${manifestFile}: entry: file "${parsed.data.entry}" does not exist`);
    if (existsSync(join(folder, MANIFEST_SCRIPT)))
      throw new Error(`${join(folder, MANIFEST_SCRIPT)}: the build writes this file from manifest.json; rename yours`);
    targets.push({
      entry: { manifest: parsed.data, entryPath: `targets/${name}/${parsed.data.entry}` },
      folder,
      files: listFiles(folder),
    });
  }
  return targets;
}

/** Files to copy into the build: the shared scripts (bridge, params), every target folder and its manifest script. */
export function targetAssetFiles(
  root: string,
  targets: DiscoveredTarget[],
): { absoluteSrc: string; relativeDest: string }[] {
  const shared = readdirSync(root)
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isFile() && path.endsWith('.js'));
  return [
    ...shared.map((path) => ({ absoluteSrc: path, relativeDest: `targets/${relative(root, path)}` })),
    ...targets.flatMap((target) =>
      target.files.map((path) => ({
        absoluteSrc: path,
        relativeDest: `targets/${target.entry.manifest.id}/${relative(target.folder, path)}`,
      })),
    ),
  ];
}

/** `targets/<id>/manifest.js`: the manifest as `window.SplitbrainManifest`, which `targets/params.js` reads. */
export function manifestScripts(targets: DiscoveredTarget[]): { relativeDest: string; contents: string }[] {
  return targets.map((target) => ({
    relativeDest: `targets/${target.entry.manifest.id}/${MANIFEST_SCRIPT}`,
    contents: `window.SplitbrainManifest = ${JSON.stringify(target.entry.manifest)};\n`,
  }));
}
