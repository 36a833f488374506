import { safeParseJSON } from '@ai-sdk/provider-utils';
import { describeManifestError, targetManifestSchema, type TargetManifest } from '../protocol/target-manifest';

export type TargetAddress =
  | {
      ok: true;
      /** Where the manifest is read: `manifest.json` beside the address typed. */
      manifestUrl: string;
      /** Host permission to ask for, without a port: match patterns with ports are not portable, and a dev server changes ports. */
      originPattern: string;
    }
  | { ok: false; error: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Reads what a user typed as the address of their own target: `localhost:5173`,
 * `http://127.0.0.1:8080/my-target/` or its `…/index.html`. A last path segment without a
 * dot is taken as a folder, so `…/my-target` finds `…/my-target/manifest.json`.
 */
export function userTargetAddress(typed: string): TargetAddress {
  const text = typed.trim();
  if (!text) return { ok: false, error: 'Type the address of your target, e.g. http://localhost:5173/.' };
  let url: URL;
  try {
    url = new URL(SCHEME.test(text) ? text : `http://${text}`);
  } catch {
    return { ok: false, error: `"${text}" is not a web address.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: `Only http and https targets can be added, not ${url.protocol.slice(0, -1)}.` };
  const lastSegment = url.pathname.split('/').at(-1) ?? '';
  if (lastSegment && !lastSegment.includes('.')) url.pathname = `${url.pathname}/`;
  url.search = '';
  url.hash = '';
  return {
    ok: true,
    manifestUrl: new URL('manifest.json', url).href,
    originPattern: `${url.protocol}//${url.hostname}/*`,
  };
}

export type FetchedManifest = { ok: true; manifest: TargetManifest; entryUrl: string } | { ok: false; error: string };

/** Checks the text of a fetched `manifest.json`; errors name the file and the field, like the build's. */
export async function parseFetchedManifest(manifestUrl: string, body: string): Promise<FetchedManifest> {
  const json = await safeParseJSON({ text: body });
  if (!json.success) {
    const cause = json.error.cause instanceof Error ? json.error.cause.message : json.error.message;
    return { ok: false, error: `${manifestUrl}: not valid JSON (${cause}).` };
  }
  const parsed = targetManifestSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, error: describeManifestError(manifestUrl, parsed.error) };
  const entryUrl = new URL(parsed.data.entry, manifestUrl);
  if (new URL(manifestUrl).origin !== entryUrl.origin)
    return { ok: false, error: `${manifestUrl}: entry: must stay on ${new URL(manifestUrl).origin}.` };
  return { ok: true, manifest: parsed.data, entryUrl: entryUrl.href };
}
