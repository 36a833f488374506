import { build } from 'esbuild';
import { resolve } from 'node:path';

const BODY = `<main>
<h1>Official SDK counter</h1>
<p>Status: <span id="status">starting</span></p>
<p>Input: <code id="input">none</code></p>
<p>Count: <span id="count">?</span></p>
<p id="result-text"></p>
<p>Display mode: <span id="display-mode"></span></p>
<p>Last call: <span id="last-call"></span></p>
<p>
<button id="increment" type="button">Add one on the server</button>
<button id="message" type="button">Send a message</button>
<button id="link" type="button">Open the link</button>
<button id="context" type="button">Tell the model</button>
<button id="image-context" type="button">Show the model a picture</button>
<button id="fullscreen" type="button">Full screen</button>
<button id="inline" type="button">Inline</button>
<button id="pip" type="button">Picture in picture</button>
<button id="log" type="button">Log</button>
<button id="download" type="button">Download</button>
<button id="resources" type="button">List resources</button>
</p>
</main>`;

let bundled: Promise<string> | undefined;

/**
 * The official-SDK app as one HTML document, its script and every dependency (the SDK, zod) inlined as one module
 * script, as vite-plugin-singlefile ships the ext-apps examples. Bundled once per process, on the first read.
 */
export function officialSdkAppHtml(): Promise<string> {
  bundled ??= build({
    entryPoints: [resolve(import.meta.dirname, 'app.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  }).then(({ outputFiles }) => {
    const code = outputFiles[0].text;
    if (/<\/script/i.test(code)) throw new Error('The bundle holds "</script" and cannot be inlined.');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Official SDK counter</title>
<style>body{font:16px system-ui;margin:12px}#count{font-size:40px}[data-theme=dark] body{background:#111;color:#eee}</style>
</head><body>
${BODY}
<script type="module">${code}</script>
</body></html>`;
  });
  return bundled;
}
