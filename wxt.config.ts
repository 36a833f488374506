import { resolve } from 'node:path';
import { defineConfig } from 'wxt';
import { discoverTargets, manifestScripts, targetAssetFiles } from './scripts/discover-targets';
import { JOB_SANDBOX_PAGE_PATH, jobSandboxPage } from './scripts/job-sandbox-page';
import { TARGET_CATALOG_PATH } from './lib/protocol/target-catalog';
import { EXTENSION_PAGES_CSP, TARGET_SANDBOX_CSP } from './lib/stage/target-csp';
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

/** Rendered from `scripts/icons/splitbrain.svg` by `scripts/icons/render.sh`. */
const ICONS = { 16: 'icon/16.png', 32: 'icon/32.png', 48: 'icon/48.png', 128: 'icon/128.png' };

export default defineConfig({
  modules: ['@wxt-dev/module-react', '@wxt-dev/webextension-polyfill'],
  // Every module is imported where it is used, so a file shows what it depends on and the lint rings can see it.
  imports: false,
  // `npm run dev` opens a browser only where there is a display; without one it builds, watches and serves, and the
  // unpacked build in .output/chrome-mv3-dev (or firefox-mv2-dev) reloads itself on every change.
  webExt: {
    disabled: !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY,
    binaries: {
      chrome: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      firefox: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    },
  },
  outDir: process.env.SPLITBRAIN_OUT_DIR ?? '.output',
  manifest: ({ browser }) => {
    const targets = allTargets();
    return {
      name: 'Splitbrain',
      description: 'Chat with a language model that drives live web apps in your browser.',
      permissions: [
        'storage',
        // OAuth sign-in to MCP servers: launchWebAuthFlow and the extension's redirect address.
        'identity',
        // The page tools: which tab is in front (its address and title) and injecting the page agent on demand.
        'tabs',
        'scripting',
        // A screenshot of the tab in front: Chrome captures one only with access to all sites or after the user
        // invoked the extension on that page (its toolbar button or shortcut), which this grants.
        'activeTab',
        'webNavigation',
        // The tabs the agent opens go into a tab group named after the conversation.
        'tabGroups',
        // An action's evidence: the failed requests of the tab it acted on (no blocking, no bodies), while it runs.
        'webRequest',
        ...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen']),
        // The test build has them granted: headless Chromium cannot answer the permission prompt.
        ...(extraTargetsRoot && browser !== 'firefox' ? ['notifications', 'downloads'] : []),
        ...(extraTargetsRoot && browser === 'firefox' ? ['http://127.0.0.1/*'] : []),
      ],
      optional_host_permissions: ['http://*/*', 'https://*/*'],
      // The test build holds the test pages' site: headless Chromium shows the optional-permission prompt of
      // `permissions.request` nowhere it can be clicked (the request neither resolves nor rejects).
      ...(extraTargetsRoot && browser !== 'firefox' ? { host_permissions: ['http://127.0.0.1/*'] } : {}),
      // The toolbar button (action / browser_action) and Firefox's sidebar take theirs from the
      // `manifest.default_icon` meta tag of entrypoints/popup/index.html and entrypoints/sidepanel/index.html.
      icons: ICONS,
      commands: {
        [openPanelCommandName(browser)]: {
          suggested_key: OPEN_PANEL_SUGGESTED_KEY,
          description: OPEN_PANEL_DESCRIPTION,
        },
      },
      ...(browser === 'firefox'
        ? {
            optional_permissions: ['http://*/*', 'https://*/*', 'notifications', 'downloads'],
            browser_specific_settings: {
              gecko: {
                id: 'splitbrain@example.org',
                // `data_collection_permissions`, which addons.mozilla.org asks every new add-on for, is read from
                // Firefox 140 on (desktop); everything else used is older (sidebar_action and optional host
                // permissions 57, AbortSignal.any 124).
                strict_min_version: '140.0',
                data_collection_permissions: { required: ['none'] },
              },
              // Firefox for Android reads `data_collection_permissions` from 142 on.
              gecko_android: { strict_min_version: '142.0' },
            },
          }
        : {
            // Asked for when the user turns browser notifications on in the options page, and when a tool card
            // offers to list the downloads the agent starts.
            optional_permissions: extraTargetsRoot ? [] : ['notifications', 'downloads'],
            sandbox: {
              pages: [
                ...targets.map((target) => target.entry.entryPath),
                JOB_SANDBOX_PAGE_PATH,
                'artifact-host.html',
                'mcp-app-host.html',
              ],
            },
            content_security_policy: { extension_pages: EXTENSION_PAGES_CSP, sandbox: TARGET_SANDBOX_CSP },
          }),
    };
  },
  hooks: {
    // job-sandbox.html is written here, not kept in public/, so its meta policy is the one of lib/stage/target-csp.ts.
    'prepare:publicPaths': (_wxt, paths) => {
      paths.push(JOB_SANDBOX_PAGE_PATH);
    },
    'build:publicAssets': (_wxt, files) => {
      files.push({ relativeDest: JOB_SANDBOX_PAGE_PATH, contents: jobSandboxPage() });
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
  zip: {
    // The sources Firefox's reviewers rebuild from: everything `npm ci && npm run build:firefox` needs, no test
    // suites, screenshots or local state.
    excludeSources: ['tests/**', 'docs/**', '.output/**', '.splitbrain-profile/**', '.scratch/**', '**/*.test.ts'],
  },
  vite: () => ({ build: { chunkSizeWarningLimit: 2000, sourcemap: !!process.env.SB_SOURCEMAP } }),
});
