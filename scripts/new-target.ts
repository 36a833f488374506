/**
 * `npm run new:target <id>`: creates `targets/<id>/`, a minimal working target (manifest with two
 * parameters, entry page, app on the shared bridge and params helper, style sheet) that the build lists.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { targetManifestSchema, type TargetManifest } from '../lib/protocol/target-manifest';

const ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
const MAX_ID_LENGTH = 60;

/** Why `id` cannot name a new target in `root`, or undefined when it can. */
export function targetIdProblem(root: string, id: string): string | undefined {
  if (!ID_PATTERN.test(id) || id.length > MAX_ID_LENGTH)
    return `"${id}" is not a valid target id: use lowercase letters, digits and -, starting with a letter or digit, at most ${MAX_ID_LENGTH} characters (e.g. "my-gauge").`;
  if (existsSync(join(root, id))) return `${join(root, id)} already exists; pick another id or edit that target.`;
  return undefined;
}

function titleOf(id: string): string {
  const words = id.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The new target's manifest, in the order a person writes it (zod's parse would reorder the keys). */
export function scaffoldManifest(id: string): TargetManifest {
  const manifest = {
    id,
    title: titleOf(id),
    description: `${titleOf(id)}: a horizontal bar that fills to a level. Made by npm run new:target; describe yours here.`,
    entry: 'index.html',
    params: {
      display: {
        level: {
          type: 'integer',
          unit: '%',
          min: 0,
          max: 100,
          step: 1,
          value: 50,
          description: 'How full the bar is.',
        },
        bar_height: {
          type: 'number',
          unit: 'px',
          min: 4,
          max: 200,
          step: 1,
          value: 40,
          description: 'Height of the bar.',
        },
      },
    },
  } satisfies TargetManifest;
  targetManifestSchema.parse(manifest);
  return manifest;
}

const page = (title: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    <link rel="stylesheet" href="style.css" />
  </head>
  <body>
    <div id="track"><div id="bar"></div></div>
    <p id="label">starting…</p>
    <script src="../bridge.js"></script>
    <script src="manifest.js"></script>
    <script src="../params.js"></script>
    <script src="app.js"></script>
  </body>
</html>
`;

const app = `(function () {
  'use strict';

  // Specs and defaults come from manifest.json (the build writes it as manifest.js).
  var params = window.SplitbrainParams.fromManifest();
  var state = params.defaults();
  var bar = document.getElementById('bar');
  var label = document.getElementById('label');

  function render() {
    bar.style.width = state.level + '%';
    bar.style.height = state.bar_height + 'px';
    label.textContent = state.level + '% · ' + state.bar_height + ' px';
  }

  var bridge = window.SplitbrainBridge.connect({
    // Only the changed parameters arrive; merge coerces them and throws, changing nothing, on a bad one.
    apply: function (changes) {
      state = params.merge(state, changes);
      render();
    },
    reset: function () {
      state = params.defaults();
      render();
    },
    getState: function () {
      return params.copy(state);
    },
  });

  render();
  bridge.ready();
})();
`;

const style = `body {
  margin: 0;
  padding: 24px;
  font: 14px/1.4 system-ui, sans-serif;
  background: #f6f7f9;
  color: #1f2933;
}

#track {
  background: #d9dee5;
  border-radius: 6px;
  overflow: hidden;
}

#bar {
  background: #2f6fde;
  transition: width 0.2s, height 0.2s;
}
`;

/** Writes the new target's files into `root/<id>/` and returns the folder; throws with the reason for a bad or taken id. */
export function createTarget(root: string, id: string): string {
  const problem = targetIdProblem(root, id);
  if (problem) throw new Error(problem);
  const manifest = scaffoldManifest(id);
  const folder = join(root, id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(folder, 'index.html'), page(manifest.title));
  writeFileSync(join(folder, 'app.js'), app);
  writeFileSync(join(folder, 'style.css'), style);
  return folder;
}

function main(): void {
  const [id, ...rest] = process.argv.slice(2);
  if (!id || rest.length > 0) {
    console.error('Usage: npm run new:target <id>   (for example: npm run new:target my-gauge)');
    process.exit(2);
  }
  try {
    const folder = createTarget(resolve(import.meta.dirname, '../targets'), id);
    console.log(`Created ${folder}. Build with npm run build; it is listed as "${id}".`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
