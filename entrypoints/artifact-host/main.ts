import '@/entrypoints/shared/zod-setup';
import { targetArtifactCsp } from '@/lib/artifacts/target-artifact-csp';
import {
  ARTIFACT_HOST_SOURCE,
  artifactStageMessageSchema,
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

function host(artifact: TargetArtifactLoad): void {
  enforcePolicy(targetArtifactCsp(artifact.granted));
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
  const holder = document.createElement('div');
  holder.innerHTML = artifact.html;
  document.body.replaceChildren(...holder.childNodes);
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
