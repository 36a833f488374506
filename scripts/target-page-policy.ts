import { readFileSync } from 'node:fs';
import { HAND_WRITTEN_TARGET_CSP } from '../lib/artifacts/target-artifact-csp';

type AssetFile = { absoluteSrc: string; relativeDest: string } | { relativeDest: string; contents: string };

/**
 * Every page of a hand-written target gets `connect-src 'none'` in a meta tag at the top of its head: the sandbox's
 * shared policy leaves the network to each page, because an authored target's host page opens the origins the
 * user granted it.
 */
export function withTargetPagePolicy(files: { absoluteSrc: string; relativeDest: string }[]): AssetFile[] {
  return files.map((file) => {
    if (!file.relativeDest.endsWith('.html')) return file;
    const page = readFileSync(file.absoluteSrc, 'utf8');
    const meta = `<meta http-equiv="Content-Security-Policy" content="${HAND_WRITTEN_TARGET_CSP}">`;
    const head = /<head[^>]*>/i.exec(page);
    if (!head) throw new Error(`${file.absoluteSrc}: a target page needs a <head> for its content security policy`);
    const at = head.index + head[0].length;
    return { relativeDest: file.relativeDest, contents: `${page.slice(0, at)}\n  ${meta}${page.slice(at)}` };
  });
}
