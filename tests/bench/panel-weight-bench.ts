/**
 * `npm run bench -- "panel weight"`: opens the side panel in Chromium with an endpoint configured and sums the
 * JavaScript it has loaded once the composer is usable (and, to show nothing heavy follows at once, two seconds
 * later): every script resource of the page, its size on disk and gzipped, and the largest files by name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import { configureEndpoint, launchExtension } from '../e2e/extension-harness';
import { benchExtensionBuild } from './extension-build';

const OPENS = 3;

function progress(message: string): void {
  process.stderr.write(`[panel weight] ${message}\n`);
}

interface Weight {
  files: number;
  rawKb: number;
  gzipKb: number;
  largest: string[];
}

/** The extension's own scripts among `urls`, read from the build folder: what the page had to load and parse. */
function weigh(build: string, urls: string[]): Weight {
  const files = [...new Set(urls.map((url) => new URL(url).pathname))].filter((path) => path.endsWith('.js'));
  const sized = files.map((path) => {
    const bytes = readFileSync(join(build, path));
    return { path, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
  sized.sort((left, right) => right.raw - left.raw);
  return {
    files: sized.length,
    rawKb: sized.reduce((sum, file) => sum + file.raw, 0) / 1000,
    gzipKb: sized.reduce((sum, file) => sum + file.gzip, 0) / 1000,
    largest: sized.slice(0, 6).map((file) => `${file.path} ${(file.raw / 1000).toFixed(0)} kB`),
  };
}

export async function run(): Promise<Record<string, number>> {
  progress('building the extension (test configuration)');
  const build = await benchExtensionBuild();
  const server: ScriptedModelServer = await startScriptedModelServer();
  const session = await launchExtension(build);
  const figures: Record<string, number> = {};
  try {
    await configureEndpoint(session, server.url);
    for (let open = 0; open < OPENS; open++) {
      const panel = await session.browser.newPage();
      // Every script the page requests (CDP Network), static imports and dynamic ones alike.
      const requested: string[] = [];
      panel.on('request', (request) => {
        if (request.resourceType() === 'script') requested.push(request.url());
      });
      await panel.goto(`chrome-extension://${session.extensionId}/sidepanel.html`);
      await panel.waitForFunction(
        () => {
          const composer = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]');
          return composer && !composer.disabled;
        },
        { polling: 10, timeout: 30_000 },
      );
      const scripts = async () => [
        ...requested,
        ...(await panel.evaluate(() =>
          [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href),
        )),
      ];
      const usable = weigh(build, await scripts());
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const settled = weigh(build, await scripts());
      await panel.close();
      progress(
        `open ${open + 1}: ${usable.files} scripts, ${usable.rawKb.toFixed(0)} kB raw, ${usable.gzipKb.toFixed(0)} kB gzip when the composer is usable; ${settled.rawKb.toFixed(0)} kB raw two seconds later`,
      );
      if (open === 0) progress(`largest: ${usable.largest.join(', ')}`);
      figures['composerUsable.scripts'] = usable.files;
      figures['composerUsable.rawKb'] = Math.round(usable.rawKb);
      figures['composerUsable.gzipKb'] = Math.round(usable.gzipKb);
      figures['twoSecondsLater.rawKb'] = Math.round(settled.rawKb);
      figures['twoSecondsLater.gzipKb'] = Math.round(settled.gzipKb);
    }
  } finally {
    await session.close();
    await server.close();
  }
  return figures;
}
