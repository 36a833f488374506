import { describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '../files/memory-blob-store';
import { MemoryEventStore } from '../session-log/memory-event-store';
import { carriedValues } from '../targets/carried-values';
import { BROKEN_CANVAS_PATHS, BROKEN_CANVAS_TARGET, CANVAS_TARGET } from '../../tests/support/authored-target-fixture';
import { countingIds, testRuntime } from '../../tests/support/test-runtime';

const sessionId = 'session-1';
const turnId = 'turn-1';

async function setup() {
  const store = new MemoryEventStore();
  const blobs = new MemoryBlobStore();
  const runtime = testRuntime({ store, blobStore: blobs, newId: countingIds('id') });
  await runtime.append(sessionId, [
    { type: 'turn/started', sessionId, turnId, time: 1, data: { userItemId: 'user', text: 'make one' } },
  ]);
  let calls = 0;
  const call = async (toolName: string, input: unknown) => {
    const result = await runtime.executeTool({
      sessionId,
      turnId,
      stepId: 'step',
      toolCallId: `call-${++calls}`,
      toolName,
      input: input as never,
    });
    return result.output as Record<string, unknown>;
  };
  return { store, blobs, runtime, call };
}

describe('createTarget and updateTarget against the runtime', () => {
  it('records created → validating → ready with the parts as BlobRefs and lists the target', async () => {
    const { store, blobs, runtime, call } = await setup();
    const created = await call('createTarget', CANVAS_TARGET);
    expect(created).toMatchObject({ ok: true, version: 1, state: 'ready' });
    const targetId = created.targetId as string;
    expect(targetId).toMatch(/^orbit-sketch-[a-z0-9]+$/);
    const types = (await store.read(sessionId, 0))
      .map((event) => event.type)
      .filter((type) => type.startsWith('artifact/'));
    expect(types).toEqual(['artifact/created', 'artifact/ready']);
    const createdEvent = (await store.read(sessionId, 0)).find((event) => event.type === 'artifact/created')!;
    const parts = (createdEvent as unknown as { data: { parts: Record<string, { blobId: string; sha256: string }> } })
      .data.parts;
    expect(Object.keys(parts).sort()).toEqual(['css', 'html', 'manifest', 'script']);
    expect(new TextDecoder().decode(await blobs.read(parts.script!.blobId))).toBe(CANVAS_TARGET.script);
    expect(JSON.stringify(createdEvent)).not.toContain('getContext');
    const [entry] = await runtime.targetArtifacts.entries([sessionId]);
    expect(entry).toMatchObject({ manifest: { id: targetId, title: 'Orbit sketch' }, artifact: { version: 1 } });
  });

  it('returns every problem with its JSON Pointer; the corrected call succeeds', async () => {
    const { call } = await setup();
    const rejected = await call('createTarget', BROKEN_CANVAS_TARGET);
    expect(rejected).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', state: 'rejected' });
    const paths = (rejected.problems as { path: string; code: string }[]).map((problem) => problem.path).sort();
    expect(paths).toEqual(BROKEN_CANVAS_PATHS);
    expect(await call('createTarget', CANVAS_TARGET)).toMatchObject({ ok: true, state: 'ready' });
  });

  it('gives JSON Pointers into the input for missing parts and bad origins', async () => {
    const { call } = await setup();
    const rejected = await call('createTarget', {
      title: '',
      params: { view: { position: { type: 'array', length: 0, value: [] } } },
      html: '<script>x()</script>',
      permissions: { network: ['not an origin'] },
    });
    const paths = (rejected.problems as { path: string }[]).map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/description', '/script', '/title', '/params/view/position/length', '/html']),
    );
  });

  it('updates with find/replace edits, refuses a stale base with VERSION_CONFLICT, restores an older version', async () => {
    const { runtime, call } = await setup();
    const { targetId } = await call('createTarget', CANVAS_TARGET);
    const second = await call('updateTarget', {
      targetId,
      baseVersion: 1,
      edits: [{ part: 'script', find: "var label = 'v1';", replace: "var label = 'v2';" }],
    });
    expect(second).toMatchObject({ ok: true, version: 2, supersedes: 1 });
    const stale = await call('updateTarget', { targetId, baseVersion: 1, html: '<p>lost</p>' });
    expect(stale).toMatchObject({ ok: false, code: 'VERSION_CONFLICT', currentVersion: 2 });
    const v2 = await runtime.targetArtifacts.load(sessionId, targetId as string);
    expect(v2.files.script).toContain("var label = 'v2';");
    expect(v2.files.html).toBe(CANVAS_TARGET.html);
    const missing = await call('updateTarget', {
      targetId,
      baseVersion: 2,
      edits: [
        { part: 'script', find: 'state', replace: 'x' },
        { part: 'html', find: 'nowhere', replace: 'x' },
      ],
    });
    expect(missing).toMatchObject({ ok: false, code: 'EDIT_FAILED' });
    expect((missing.problems as { path: string; code: string }[]).map(({ path, code }) => `${path} ${code}`)).toEqual([
      '/edits/0/find EDIT_AMBIGUOUS',
      '/edits/1/find EDIT_NOT_FOUND',
    ]);
    expect(await runtime.targetArtifacts.restore(sessionId, targetId as string, 1)).toEqual({ version: 3 });
    const [entry] = await runtime.targetArtifacts.entries([sessionId]);
    expect(
      (entry as { artifact: { versions: { version: number; state: string }[] } }).artifact.versions.map(
        (known) => `${known.version}:${known.state}`,
      ),
    ).toEqual(['1:superseded', '2:superseded', '3:ready']);
    expect((await runtime.targetArtifacts.load(sessionId, targetId as string)).files.script).toContain("'v1'");
  });

  it('carries values into a new version only for parameters that kept their name and type', async () => {
    const { runtime, call } = await setup();
    const created = await call('createTarget', CANVAS_TARGET);
    const targetId = String(created.targetId);
    expect(await runtime.targetArtifacts.baseManifest(sessionId, targetId)).toBeUndefined();
    const retyped = {
      ...CANVAS_TARGET.params,
      orbit: { ...CANVAS_TARGET.params.orbit, speed: { type: 'number', unit: 'rpm', min: 0, max: 120, value: 30 } },
    };
    expect(await call('updateTarget', { targetId, baseVersion: 1, params: retyped })).toMatchObject({ version: 2 });
    const [entry] = await runtime.targetArtifacts.entries([sessionId]);
    const previous = await runtime.targetArtifacts.baseManifest(sessionId, targetId);
    expect(previous?.params.orbit?.speed?.type).toBe('integer');
    const saved = { radius: 90, speed: 45, tint: '#ff8800' };
    expect(carriedValues(saved, entry!.manifest, previous)).toEqual({ radius: 90, tint: '#ff8800' });
  });

  it('grants only what the current version asks for, and revokes', async () => {
    const { runtime, call } = await setup();
    const { targetId } = await call('createTarget', {
      ...CANVAS_TARGET,
      permissions: { network: ['http://127.0.0.1:9000'] },
    });
    const grant = { permission: 'network' as const, origin: 'http://127.0.0.1:9000' };
    await expect(
      runtime.targetArtifacts.setGrant(sessionId, targetId as string, { permission: 'clipboard' }, true),
    ).rejects.toThrow('does not ask for clipboard');
    expect(await runtime.targetArtifacts.setGrant(sessionId, targetId as string, grant, true)).toEqual([grant]);
    expect(await runtime.targetArtifacts.setGrant(sessionId, targetId as string, grant, false)).toEqual([]);
  });

  it('reads its artifacts back from the log after a restart', async () => {
    const { store, blobs, call } = await setup();
    const { targetId } = await call('createTarget', CANVAS_TARGET);
    const restarted = testRuntime({ store, blobStore: blobs, newId: () => 'x' });
    const [entry] = await restarted.targetArtifacts.entries([sessionId]);
    expect(entry?.manifest.id).toBe(targetId);
  });
});
