import '@/entrypoints/shared/zod-setup';
import { targetArtifactCsp } from '@/lib/stage/target-csp';
import { grantedOrigin } from '@/lib/authored-targets/granted-origin';
import {
  ARTIFACT_HOST_SOURCE,
  artifactFetchResultSchema,
  artifactStageMessageSchema,
  type ArtifactFetchResult,
  type ArtifactHostMessage,
  type TargetArtifactLoad,
} from '@/lib/protocol/target-artifact-wire';

/**
 * The generic host of an authored target, in the stage's sandboxed frame: it asks the stage for the files, puts
 * its own content security policy in force before any of them runs, then loads the bridge, the parameter helper
 * and the model's script, exactly as a hand-written target's page would.
 */
function postToStage(message: ArtifactHostMessage): void {
  window.parent.postMessage(message, '*');
}

function addScript(src: string): void {
  const script = document.createElement('script');
  script.src = src;
  // Inserted scripts run in insertion order only when not async: the bridge before the app.
  script.async = false;
  document.body.append(script);
}

function enforcePolicy(policy: string): void {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = policy;
  document.head.prepend(meta);
}

const relayed = new Map<string, (result: ArtifactFetchResult) => void>();

function receiveRelayed(event: MessageEvent): void {
  if (event.source !== window.parent) return;
  const parsed = artifactFetchResultSchema.safeParse(event.data);
  if (!parsed.success) return;
  relayed.get(parsed.data.id)?.(parsed.data);
  relayed.delete(parsed.data.id);
}

/**
 * fetch() for the origins the user granted goes through the stage, which checks the origin again; every other
 * request is the browser's own, which the sandbox's policy blocks (and reports).
 */
function relayGrantedFetches(artifact: TargetArtifactLoad): void {
  if (!artifact.granted.some((grant) => grant.permission === 'network')) return;
  const browserFetch = window.fetch.bind(window);
  window.addEventListener('message', receiveRelayed);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (!grantedOrigin(request.url, artifact.granted)) return browserFetch(input, init);
    const id = crypto.randomUUID();
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    const result = await new Promise<ArtifactFetchResult>((resolve) => {
      relayed.set(id, resolve);
      postToStage({
        source: ARTIFACT_HOST_SOURCE,
        type: 'fetch',
        id,
        url: request.url,
        method: request.method as 'GET',
        ...(request.headers.get('content-type') ? { contentType: request.headers.get('content-type')! } : {}),
        ...(body !== undefined ? { body } : {}),
      });
    });
    if (!result.response) throw new TypeError(result.error ?? 'Failed to fetch');
    const { status, statusText, contentType, body: text } = result.response;
    return new Response(status === 204 || status === 304 ? null : text, {
      status,
      statusText,
      headers: { 'content-type': contentType },
    });
  };
}

function host(artifact: TargetArtifactLoad): void {
  enforcePolicy(targetArtifactCsp(artifact.granted));
  relayGrantedFetches(artifact);
  document.addEventListener('securitypolicyviolation', (event) =>
    postToStage({
      source: ARTIFACT_HOST_SOURCE,
      type: 'csp-violation',
      directive: event.effectiveDirective.slice(0, 200),
      blockedUrl: event.blockedURI.slice(0, 2000),
    }),
  );
  document.title = artifact.manifest.title;
  if (artifact.css) {
    const style = document.createElement('style');
    style.textContent = artifact.css;
    document.head.append(style);
  }
  // Parsed in an inert document (scripts in it never run), then moved in: the model's script runs only from its blob.
  const parsed = new DOMParser().parseFromString(artifact.html, 'text/html');
  document.body.replaceChildren(...parsed.body.childNodes);
  Object.assign(window, { SplitbrainManifest: artifact.manifest });
  addScript('/targets/bridge.js');
  addScript('/targets/params.js');
  addScript(URL.createObjectURL(new Blob([artifact.script], { type: 'text/javascript' })));
}

function receive(event: MessageEvent): void {
  if (event.source !== window.parent) return;
  const parsed = artifactStageMessageSchema.safeParse(event.data);
  if (!parsed.success) return;
  window.removeEventListener('message', receive);
  host(parsed.data.artifact);
}

window.addEventListener('message', receive);
postToStage({ source: ARTIFACT_HOST_SOURCE, type: 'host-ready' });
