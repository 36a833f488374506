import type { AuthoredTargetAction } from '@/components/popup/authored-target-controls';
import { callRuntime } from '../shared/call-runtime';

function downloadZip(fileName: string, zipBase64: string): void {
  const bytes = Uint8Array.from(atob(zipBase64), (character) => character.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/zip' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What the popup's buttons on an authored target ask the runtime for. */
export async function runAuthoredTargetAction(action: AuthoredTargetAction): Promise<void> {
  const { sessionId, artifactId } = action.info;
  if (action.kind === 'restore') {
    await callRuntime({ type: 'target-artifact/restore', sessionId, artifactId, version: action.version });
  } else if (action.kind === 'open-version') {
    await callRuntime({ type: 'target-artifact/open-version', sessionId, artifactId, version: action.version });
  } else if (action.kind === 'grant') {
    await callRuntime({
      type: 'target-artifact/grant',
      sessionId,
      artifactId,
      grant: action.grant,
      granted: action.granted,
    });
  } else {
    const { fileName, zipBase64 } = await callRuntime({ type: 'target-artifact/export', sessionId, artifactId });
    downloadZip(fileName, zipBase64);
  }
}
