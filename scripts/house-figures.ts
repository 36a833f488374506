/**
 * `npm run figures [-- <root>]`: the shape of the code. lib/ floors (folders in dependency order, the lowest first),
 * the arrows that run back up (folder pairs whose imports go against that order, with their import counts), import
 * circles between files (madge), and the line counts of lib/runtime/ (without tests), the background entrypoint and
 * the side panel's app component. `<root>` defaults to this checkout; pass an unpacked older tree to compare.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import madge from 'madge';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const libRoot = join(root, 'lib');

/** Import counts between lib/ folders: `edges.get(from).get(to)` is how many file-to-file imports go from → to. */
type FolderGraph = Map<string, Map<string, number>>;

async function importGraph(): Promise<{ files: Record<string, string[]>; circles: string[][] }> {
  const result = await madge(libRoot, {
    baseDir: root,
    fileExtensions: ['ts', 'tsx'],
    excludeRegExp: [/\.test\.tsx?$/, /(^|\/)tests\//, /(^|\/)node_modules\//],
    tsConfig: { compilerOptions: { baseUrl: root, paths: { '@/*': ['./*'] }, moduleResolution: 'bundler' } },
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  return { files: result.obj(), circles: result.circular() };
}

function folderOf(file: string): string | undefined {
  const match = /^lib\/([^/]+)\//.exec(file);
  return match?.[1];
}

function libFolders(): string[] {
  return readdirSync(libRoot)
    .filter((name) => statSync(join(libRoot, name)).isDirectory())
    .sort();
}

function folderGraph(files: Record<string, string[]>, folders: string[]): FolderGraph {
  const graph: FolderGraph = new Map(folders.map((folder) => [folder, new Map()]));
  for (const [file, imports] of Object.entries(files)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const imported of imports) {
      const to = folderOf(imported);
      if (!to || to === from) continue;
      const row = graph.get(from) ?? new Map<string, number>();
      row.set(to, (row.get(to) ?? 0) + 1);
      graph.set(from, row);
    }
  }
  return graph;
}

/**
 * Orders the folders so that as few imports as possible point up (a folder imports what is below it): the greedy
 * feedback-arc heuristic of Eades, Lin and Smyth, weighted by import counts. Sinks go to the bottom, sources to the
 * top, and of the rest the folder that is imported most for what it imports goes down first; then single moves that
 * lower the count of upward imports, until none does.
 */
function dependencyOrder(graph: FolderGraph): string[] {
  const remaining = new Set(graph.keys());
  const weight = (from: string, to: string) => graph.get(from)?.get(to) ?? 0;
  const outWeight = (folder: string) => [...remaining].reduce((sum, other) => sum + weight(folder, other), 0);
  const inWeight = (folder: string) => [...remaining].reduce((sum, other) => sum + weight(other, folder), 0);
  const bottom: string[] = [];
  const top: string[] = [];
  while (remaining.size > 0) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const folder of [...remaining].sort()) {
        if (outWeight(folder) === 0) {
          bottom.push(folder);
          remaining.delete(folder);
          changed = true;
        } else if (inWeight(folder) === 0) {
          top.unshift(folder);
          remaining.delete(folder);
          changed = true;
        }
      }
    }
    if (remaining.size === 0) break;
    const next = [...remaining].sort(
      (a, b) => inWeight(b) - outWeight(b) - (inWeight(a) - outWeight(a)) || a.localeCompare(b),
    )[0];
    bottom.push(next);
    remaining.delete(next);
  }
  return improveOrder(graph, [...bottom, ...top]);
}

function upWeight(graph: FolderGraph, order: string[]): number {
  const position = new Map(order.map((folder, index) => [folder, index]));
  let sum = 0;
  for (const [from, row] of graph)
    for (const [to, imports] of row) if ((position.get(to) ?? 0) > (position.get(from) ?? 0)) sum += imports;
  return sum;
}

/** Moves one folder at a time to the place where the fewest imports point up, until no single move helps. */
function improveOrder(graph: FolderGraph, start: string[]): string[] {
  let order = start;
  let best = upWeight(graph, order);
  let improved = true;
  while (improved) {
    improved = false;
    for (const folder of start) {
      const without = order.filter((other) => other !== folder);
      for (let index = 0; index <= without.length; index++) {
        const candidate = [...without.slice(0, index), folder, ...without.slice(index)];
        const weight = upWeight(graph, candidate);
        if (weight < best) {
          best = weight;
          order = candidate;
          improved = true;
        }
      }
    }
  }
  return order;
}

interface BackArrow {
  from: string;
  to: string;
  imports: number;
}

function backArrows(graph: FolderGraph, order: string[]): BackArrow[] {
  const position = new Map(order.map((folder, index) => [folder, index]));
  const arrows: BackArrow[] = [];
  for (const [from, row] of graph)
    for (const [to, imports] of row)
      if ((position.get(to) ?? 0) > (position.get(from) ?? 0)) arrows.push({ from, to, imports });
  return arrows.sort((a, b) => b.imports - a.imports || a.from.localeCompare(b.from));
}

/** Floor 0 imports no other folder; every other folder sits one floor above the highest it imports downward. */
function floors(graph: FolderGraph, order: string[]): string[][] {
  const position = new Map(order.map((folder, index) => [folder, index]));
  const floor = new Map<string, number>();
  for (const folder of order) {
    const below = [...(graph.get(folder)?.keys() ?? [])].filter(
      (to) => (position.get(to) ?? 0) < (position.get(folder) ?? 0),
    );
    floor.set(folder, below.length === 0 ? 0 : Math.max(...below.map((to) => floor.get(to) ?? 0)) + 1);
  }
  const result: string[][] = [];
  for (const [folder, level] of floor) (result[level] ??= []).push(folder);
  return result.map((level) => level.sort());
}

function sourceFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => sourceFiles(join(path, name)));
}

function lineCount(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

async function main(): Promise<void> {
  const { files, circles } = await importGraph();
  const graph = folderGraph(files, libFolders());
  const order = dependencyOrder(graph);
  const arrows = backArrows(graph, order);
  const runtimeLines = sourceFiles(join(libRoot, 'runtime'))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .reduce((sum, file) => sum + lineCount(file), 0);

  console.log(`Figures of ${relative(process.cwd(), root) || '.'}`);
  console.log(`\nlib/ floors (${graph.size} folders; floor 0 imports no other lib/ folder):`);
  floors(graph, order).forEach((level, index) => console.log(`  ${index}: ${level.join(', ')}`));
  const upImports = arrows.reduce((sum, arrow) => sum + arrow.imports, 0);
  console.log(`\narrows that run back up: ${arrows.length} (${upImports} imports)`);
  for (const arrow of arrows) console.log(`  ${arrow.from} → ${arrow.to}: ${arrow.imports}`);
  console.log(`\nimport circles (madge): ${circles.length}`);
  for (const circle of circles) console.log(`  ${circle.join(' → ')}`);
  console.log('\nlines:');
  console.log(`  lib/runtime/ (without tests): ${runtimeLines}`);
  console.log(`  entrypoints/background.ts: ${lineCount(join(root, 'entrypoints/background.ts'))}`);
  console.log(
    `  entrypoints/sidepanel/side-panel-app.tsx: ${lineCount(join(root, 'entrypoints/sidepanel/side-panel-app.tsx'))}`,
  );
}

await main();
