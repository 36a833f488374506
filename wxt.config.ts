import { resolve } from 'node:path';
import { defineConfig } from 'wxt';
import { discoverTargets, manifestScripts, targetAssetFiles } from './scripts/discover-targets';
import { TARGET_CATALOG_PATH } from './lib/manifest/target-catalog';
import { OPEN_PANEL_DESCRIPTION, OPEN_PANEL_SUGGESTED_KEY, openPanelCommandName } from './lib/panel/open-panel-command';

const targetsRoot = resolve(__dirname, 'targets');
const DEFAULT_TARGET_ID = 'particles';
/** Test builds add fixture targets (slow, hostile) that are never shipped. */
const extraTargetsRoot = process.env.SPLITBRAIN_EXTRA_TARGETS
  ? resolve(process.env.SPLITBRAIN_EXTRA_TARGETS)
  : undefined;

function allTargets() {
  const targets = [...discoverTargets(targetsRoot), ...(extraTargetsRoot ? discoverTargets(extraTargetsRoot) : [])];
  const ids = new Set<string>();
  for (const target of targets) {
    if (ids.has(target.entry.manifest.id)) throw new Error(`Two targets share the id "${target.entry.manifest.id}"`);
    ids.add(target.entry.manifest.id);
  }
  return targets;
}

/** The project's own shared target scripts; an extra targets folder cannot replace them. */
const SHARED_SCRIPTS = ['targets/bridge.js', 'targets/params.js'];

const TARGET_CSP = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'none'",
  "worker-src 'self' blob:",
  "frame-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

export default defineConfig({
  modules: ['@wxt-dev/module-react', '@wxt-dev/webextension-polyfill'],
  outDir: process.env.SPLITBRAIN_OUT_DIR ?? '.output',
  manifest: ({ browser }) => {
    const targets = allTargets();
    return {
      name: 'Splitbrain',
      description: 'Chat with a language model that drives live web apps in your browser.',
      permissions: ['storage', ...(browser === 'firefox' ? [] : ['sidePanel'])],
      optional_host_permissions: ['http://*/*', 'https://*/*'],
      action: { default_title: 'Open Splitbrain' },
      commands: {
        [openPanelCommandName(browser)]: {
          suggested_key: OPEN_PANEL_SUGGESTED_KEY,
          description: OPEN_PANEL_DESCRIPTION,
        },
      },
      ...(browser === 'firefox'
        ? {
            optional_permissions: ['http://*/*', 'https://*/*'],
            browser_specific_settings: {
              gecko: {
                id: 'splitbrain@example.org',
                strict_min_version: '140.0',
                data_collection_permissions: { required: ['none'] },
              },
            },
          }
        : {
            sandbox: { pages: targets.map((target) => target.entry.entryPath) },
            content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'", sandbox: TARGET_CSP },
          }),
    };
  },
  hooks: {
    'build:publicAssets': (_wxt, files) => {
      const targets = allTargets();
      files.push(...targetAssetFiles(targetsRoot, discoverTargets(targetsRoot)));
      if (extraTargetsRoot)
        files.push(
          ...targetAssetFiles(extraTargetsRoot, discoverTargets(extraTargetsRoot)).filter(
            (file) => !SHARED_SCRIPTS.includes(file.relativeDest),
          ),
        );
      files.push(...manifestScripts(targets));
      files.push({
        relativeDest: TARGET_CATALOG_PATH,
        contents: JSON.stringify(
          { targets: targets.map((target) => target.entry), defaultTargetId: DEFAULT_TARGET_ID },
          null,
          2,
        ),
      });
    },
  },
  vite: () => ({ build: { chunkSizeWarningLimit: 2000 } }),
});
