import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { TargetManifest } from '../../lib/protocol/target-manifest';
import { MANIFEST_SCRIPT } from '../discover-targets';

const ADAPTER = join(import.meta.dirname, 'mcp-app-bridge.js');

/** Text inlined into a `<script>` or `<style>` element, unable to close it early. */
function inlined(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`</${element}`, 'gi'), `<\\/${element}`);
}

/**
 * A target's entry page as one self-contained document, as MCP Apps hosts render it (a `ui://` resource is HTML
 * text, with no folder to load files from): its style sheets and scripts inlined in order, `manifest.js` written
 * from the manifest, and the MCP Apps bridge (scripts/mcp-serve/mcp-app-bridge.js) before targets/bridge.js.
 */
export function targetHtml(folder: string, manifest: TargetManifest): string {
  const entry = join(folder, manifest.entry);
  const base = dirname(entry);
  const read = (source: string) => readFileSync(resolve(base, source), 'utf8');
  return readFileSync(entry, 'utf8')
    .replace(/<link\s+rel="stylesheet"\s+href="([^"]+)"\s*\/?>/g, (_match, href: string) => {
      return `<style>${inlined(read(href), 'style')}</style>`;
    })
    .replace(/<script\s+src="([^"]+)"\s*><\/script>/g, (_match, source: string) => {
      if (source === MANIFEST_SCRIPT) {
        return `<script>window.SplitbrainManifest = ${inlined(JSON.stringify(manifest), 'script')};</script>`;
      }
      const script = `<script>${inlined(read(source), 'script')}</script>`;
      const adapter = `<script>${inlined(readFileSync(ADAPTER, 'utf8'), 'script')}</script>`;
      return source.endsWith('bridge.js') ? `${adapter}\n${script}` : script;
    });
}
