import browser from 'webextension-polyfill';
import { parseFetchedManifest, userTargetAddress } from '@/lib/manifest/user-target-address';
import { callRuntime } from '../shared/call-runtime';
import { errorText } from '@/lib/protocol/error-text';

const MAX_MANIFEST_BYTES = 512 * 1024;

/**
 * Registers a target served from a URL. The host permission is requested first, synchronously
 * inside the click: browsers show the prompt only during a user gesture (Firefox not even after
 * an await). Without the permission the manifest can still be read if the server allows
 * cross-origin requests; the frame itself needs no permission.
 */
export function addUserTarget(typed: string): Promise<{ title: string }> {
  const address = userTargetAddress(typed);
  if (!address.ok) return Promise.reject(new Error(address.error));
  const permission = browser.permissions.request({ origins: [address.originPattern] }).catch(() => false);
  return (async () => {
    const granted = await permission;
    const manifestUrl = address.manifestUrl;
    let response: Response;
    try {
      response = await fetch(manifestUrl, { cache: 'no-store', credentials: 'omit', redirect: 'error' });
    } catch (error) {
      const reason = granted
        ? errorText(error)
        : `access to ${new URL(manifestUrl).host} was not granted and the server does not allow cross-origin requests`;
      throw new Error(`Could not read ${manifestUrl}: ${reason}.`);
    }
    if (!response.ok)
      throw new Error(
        `Could not read ${manifestUrl}: the server answered ${response.status} ${response.statusText}.`.replace(
          ' .',
          '.',
        ),
      );
    const body = await response.text();
    if (body.length > MAX_MANIFEST_BYTES)
      throw new Error(`${manifestUrl} is larger than ${MAX_MANIFEST_BYTES / 1024} KB.`);
    const fetched = await parseFetchedManifest(manifestUrl, body);
    if (!fetched.ok) throw new Error(fetched.error);
    await callRuntime({ type: 'targets/register', entryUrl: fetched.entryUrl, manifest: fetched.manifest });
    return { title: fetched.manifest.title };
  })();
}
