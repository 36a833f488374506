import { strToU8, zipSync } from 'fflate';
import type { TargetArtifactContent } from './target-artifact-control';

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The page a hand-written target would have: the body markup, then the bridge, the manifest, params and the app. */
export function targetFolderPage(content: TargetArtifactContent): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '  <meta charset="utf-8">',
    '  <meta name="viewport" content="width=device-width, initial-scale=1">',
    `  <title>${escapeHtml(content.manifest.title)}</title>`,
    ...(content.files.css !== undefined ? ['  <link rel="stylesheet" href="style.css">'] : []),
    '</head>',
    '<body>',
    content.files.html,
    '  <script src="../bridge.js"></script>',
    '  <script src="manifest.js"></script>',
    '  <script src="../params.js"></script>',
    '  <script src="app.js"></script>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** "Save as target folder": `<id>/manifest.json` and its files, which drop into `targets/` and build. */
export function targetFolderZip(content: TargetArtifactContent): { fileName: string; bytes: Uint8Array } {
  const id = content.manifest.id;
  const files: Record<string, Uint8Array> = {
    [`${id}/manifest.json`]: strToU8(`${JSON.stringify(content.manifest, null, 2)}\n`),
    [`${id}/index.html`]: strToU8(targetFolderPage(content)),
    [`${id}/app.js`]: strToU8(content.files.script),
    ...(content.files.css !== undefined ? { [`${id}/style.css`]: strToU8(content.files.css) } : {}),
  };
  return { fileName: `${id}.zip`, bytes: zipSync(files) };
}
