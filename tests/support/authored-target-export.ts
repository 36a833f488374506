import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { MemoryBlobStore } from '../../lib/files/memory-blob-store';
import { targetFolderZip } from '../../lib/authored-targets/target-folder-zip';
import { CANVAS_TARGET } from './authored-target-fixture';
import { testRuntime } from './test-runtime';

/** Makes the canvas app through the runtime, exports it with "Save as target folder" and unzips it into a new folder. */
export async function exportedCanvasTarget(): Promise<{ root: string; targetId: string; files: string[] }> {
  const sessionId = 'session-1';
  const runtime = testRuntime({ blobStore: new MemoryBlobStore(), newId: () => 'a1b2c3d4' });
  await runtime.append(sessionId, [
    { type: 'turn/started', sessionId, turnId: 'turn-1', time: 1, data: { userItemId: 'user', text: 'make it' } },
  ]);
  const created = await runtime.executeTool({
    sessionId,
    turnId: 'turn-1',
    stepId: 'step',
    toolCallId: 'call-1',
    toolName: 'createTarget',
    input: CANVAS_TARGET as never,
  });
  const targetId = (created.output as { targetId: string }).targetId;
  const { bytes } = targetFolderZip(await runtime.targetArtifacts.load(sessionId, targetId));
  const root = mkdtempSync(join(tmpdir(), 'splitbrain-export-'));
  const entries = unzipSync(bytes);
  for (const [name, content] of Object.entries(entries)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return { root, targetId, files: Object.keys(entries).sort() };
}
