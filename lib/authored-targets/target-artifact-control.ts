import { z } from 'zod';
import type { BlobStore } from '../files/blob-store';
import { storeBytes } from '../files/store-bytes';
import type { CatalogEntry } from '../protocol/target-catalog';
import { targetManifestSchema, type TargetManifest } from '../protocol/target-manifest';
import type { AgentEventDraft } from '../protocol/agent-event';
import type { JsonValue } from '../protocol/json-value';
import type { BlobRef } from '../protocol/blob-ref';
import type { TargetArtifactParts, TargetArtifactProblem, TargetGrant } from '../protocol/target-artifact-events';
import type { ToolOutput } from '../protocol/tool-output';
import type { SessionLock } from '../session-log/session-lock';
import { authoredManifest, checkTargetDraft, type TargetFiles } from './target-artifact-draft';
import { applyTargetEdits } from './target-artifact-edits';
import { sameGrant, TargetArtifactLedger, type TargetArtifactRecord } from './target-artifact-ledger';
import { updateTargetInputSchema } from './target-artifact-inputs';
import { issuesText } from '../protocol/issue-text';

export interface TargetArtifactAccess {
  lock: SessionLock;
  now(): number;
  newId(): string;
  /** Records drafts; the caller holds the session's lock. */
  commitDrafts(sessionId: string, drafts: AgentEventDraft[]): Promise<void>;
  /** The session's ledger, as the runtime keeps it for a loaded session (from its snapshot and the log after it). */
  ledger(sessionId: string): Promise<TargetArtifactLedger>;
  blobs?: BlobStore;
}

export interface TargetArtifactCall {
  sessionId: string;
  turnId?: string;
  toolCallId?: string;
  toolName: string;
  input: JsonValue;
}

/** Everything a host needs to run one version: its manifest, files and the grants in effect. */
export interface TargetArtifactContent {
  artifactId: string;
  version: number;
  manifest: TargetManifest;
  files: TargetFiles;
  granted: TargetGrant[];
}

/**
 * The tool's own schema with its parts only typed: checkTargetDraft checks them against the manifest and the size
 * limits, and reports every problem with its pointer in a rejected version.
 */
const updateInputSchema = updateTargetInputSchema.extend({
  params: z.unknown().optional(),
  permissions: z.unknown().optional(),
  html: z.string().optional(),
  css: z.string().optional(),
  script: z.string().optional(),
});

const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

function failure(code: string, error: string, extra: Record<string, JsonValue> = {}): ToolOutput {
  return { ok: false, code, error, ...extra };
}

function rejection(targetId: string, version: number, problems: TargetArtifactProblem[]): ToolOutput {
  return {
    ok: false,
    code: 'VALIDATION_FAILED',
    targetId,
    version,
    state: 'rejected',
    error: `The target was rejected with ${problems.length} problem(s); fix them all and call again.`,
    problems,
  };
}

/** A readable, unique target id from the title: lowercase words and a short random tail. */
export function authoredTargetId(title: unknown, randomId: string): string {
  const words = typeof title === 'string' ? title.toLowerCase().replace(/[^a-z0-9]+/g, '-') : '';
  const stem =
    words
      .replace(/^-+|-+$/g, '')
      .slice(0, 32)
      .replace(/-+$/, '') || 'target';
  const tail = randomId
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 6);
  return `${stem}-${tail}`;
}

/**
 * Model-authored targets: createTarget and updateTarget, restore and grants. Every artifact event is written
 * here under the session's lock, so the version check and the new version are one step: no update is lost.
 */
export class TargetArtifactControl {
  /** Sessions whose ledger was asked for: the catalog lists their targets without being told the session. */
  private readonly used = new Set<string>();
  private readonly texts = new Map<string, string>();
  /** The last stored ref of each part of each target, by `session target name`. */
  private readonly unchanged = new Map<string, BlobRef>();

  constructor(private readonly access: TargetArtifactAccess) {}

  forget(sessionId: string): void {
    this.used.delete(sessionId);
  }

  knownSessions(): string[] {
    return [...this.used];
  }

  /** Without a blob store no part can be kept, so neither createTarget nor updateTarget answers but this. */
  unavailable(): ToolOutput | undefined {
    return this.access.blobs ? undefined : failure('UNAVAILABLE', 'Authored targets are not available here.');
  }

  create(call: TargetArtifactCall): Promise<ToolOutput> {
    const input = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, unknown>;
    const targetId = authoredTargetId(input.title, this.access.newId());
    return this.access.lock.run(call.sessionId, async () => {
      await this.loadedLedger(call.sessionId);
      return this.recordVersion(call, targetId, undefined, input);
    });
  }

  update(call: TargetArtifactCall): Promise<ToolOutput> {
    const parsed = updateInputSchema.safeParse(call.input);
    if (!parsed.success) {
      const details = issuesText(parsed.error.issues, { path: 'pointer' });
      return Promise.resolve(failure('INVALID_INPUT', `Invalid input for updateTarget: ${details}.`));
    }
    const { targetId, baseVersion, edits, ...parts } = parsed.data;
    return this.access.lock.run(call.sessionId, async () => {
      const record = (await this.loadedLedger(call.sessionId)).get(targetId);
      if (!record) return failure('NOT_FOUND', `No target "${targetId}" was made in this conversation.`);
      if (record.current === undefined)
        return failure('NOT_READY', `Target "${targetId}" has no ready version; fix it with createTarget.`);
      if (baseVersion !== record.current)
        return failure(
          'VERSION_CONFLICT',
          `Version ${baseVersion} is not the current version of "${targetId}" (it is ${record.current}); nothing was changed. Read it again and update version ${record.current}.`,
          { targetId, baseVersion, currentVersion: record.current },
        );
      const base = await this.content(record, record.current);
      const files: TargetFiles = {
        html: parts.html ?? base.files.html,
        script: parts.script ?? base.files.script,
        ...((parts.css ?? base.files.css) !== undefined ? { css: parts.css ?? base.files.css } : {}),
      };
      const edited = applyTargetEdits(files, edits ?? []);
      if (!edited.ok)
        return {
          ...failure('EDIT_FAILED', 'An edit did not match exactly once; nothing was changed.', {
            targetId,
            currentVersion: record.current,
          }),
          problems: edited.problems,
        };
      const source: Record<string, unknown> = {
        title: parts.title ?? base.manifest.title,
        description: parts.description ?? base.manifest.description,
        params: parts.params ?? base.manifest.params,
        ...((parts.permissions ?? base.manifest.permissions) !== undefined
          ? { permissions: parts.permissions ?? base.manifest.permissions }
          : {}),
        ...edited.files,
      };
      return this.recordVersion(call, targetId, record, source);
    });
  }

  /** Stores the parts, then records draft → validating → ready (superseding the current one) or rejected. */
  private async recordVersion(
    call: TargetArtifactCall,
    targetId: string,
    record: TargetArtifactRecord | undefined,
    source: Record<string, unknown>,
  ): Promise<ToolOutput> {
    const version = (record?.latest ?? 0) + 1;
    const previous = record?.current;
    const check = checkTargetDraft(targetId, source);
    const manifestText = JSON.stringify(check.ok ? check.manifest : authoredManifest(targetId, source), null, 2);
    const parts = await this.storeParts(call.sessionId, targetId, version, {
      manifest: manifestText,
      html: typeof source.html === 'string' ? source.html : '',
      script: typeof source.script === 'string' ? source.script : '',
      ...(typeof source.css === 'string' ? { css: source.css } : {}),
    });
    const ids = {
      sessionId: call.sessionId,
      artifactId: targetId,
      time: this.access.now(),
    };
    const drafts: AgentEventDraft[] = [
      {
        type: 'artifact/created',
        ...ids,
        ...(call.turnId ? { turnId: call.turnId } : {}),
        ...(call.toolCallId ? { toolCallId: call.toolCallId } : {}),
        data: {
          kind: 'html-app',
          version,
          state: 'draft',
          parts,
          ...(previous !== undefined ? { baseVersion: previous } : {}),
        },
      },
      { type: 'artifact/validating', ...ids, data: { version, state: 'validating' } },
    ];
    if (!check.ok) {
      drafts.push({
        type: 'artifact/rejected',
        ...ids,
        data: { version, state: 'rejected', problems: check.problems },
      });
      await this.access.commitDrafts(call.sessionId, drafts);
      return rejection(targetId, version, check.problems);
    }
    drafts.push({ type: 'artifact/ready', ...ids, data: { version, state: 'ready', requested: check.requested } });
    if (previous !== undefined)
      drafts.push({
        type: 'artifact/superseded',
        ...ids,
        data: { version: previous, state: 'superseded', by: version },
      });
    await this.access.commitDrafts(call.sessionId, drafts);
    return {
      ok: true,
      targetId,
      version,
      state: 'ready',
      ...(previous !== undefined ? { supersedes: previous } : {}),
      ...(check.requested.length > 0
        ? { permissions: `Asked for ${check.requested.length}; none is granted until the user grants it.` }
        : {}),
      next:
        previous !== undefined
          ? `Version ${version} is current. Call openTarget("${targetId}") to load it, then getParameters.`
          : `Call openTarget("${targetId}"), then getParameters; update it with updateTarget and baseVersion ${version}.`,
    };
  }

  private async storeParts(
    sessionId: string,
    targetId: string,
    version: number,
    texts: { manifest: string; html: string; css?: string; script: string },
  ): Promise<TargetArtifactParts> {
    const ownerId = `artifact:${targetId}:${version}`;
    const store = async (text: string, name: string): Promise<BlobRef> => {
      // A part the update left as it was keeps its ref: the bytes and their reference in this session are stored already.
      const same = this.unchanged.get(`${sessionId} ${targetId} ${name}`);
      if (same && this.texts.get(same.blobId) === text) return same;
      const stored = await storeBytes(this.access.blobs!, {
        bytes: textEncoder.encode(text),
        name,
        sessionId,
        ownerId,
      });
      if (!stored.ok) throw new Error(`Could not store ${name}: ${stored.reason}`);
      this.texts.set(stored.ref.blobId, text);
      this.unchanged.set(`${sessionId} ${targetId} ${name}`, stored.ref);
      return stored.ref;
    };
    return {
      manifest: await store(texts.manifest, 'manifest.json'),
      html: await store(texts.html, 'index.html'),
      script: await store(texts.script, 'app.js'),
      ...(texts.css !== undefined ? { css: await store(texts.css, 'style.css') } : {}),
    };
  }

  /** The user restores an older version: a new version with its parts becomes current. */
  restore(sessionId: string, artifactId: string, version: number): Promise<{ version: number }> {
    return this.access.lock.run(sessionId, async () => {
      const restored = await this.restoreDrafts(sessionId, artifactId, version);
      if (restored.drafts.length > 0) await this.access.commitDrafts(sessionId, restored.drafts);
      return { version: restored.version };
    });
  }

  /**
   * The events that make `version` current again as a new version (none when it is current already), for the
   * caller to commit, alone or with what it records beside them (a rewind); the caller holds the session's lock.
   */
  async restoreDrafts(
    sessionId: string,
    artifactId: string,
    version: number,
  ): Promise<{ version: number; drafts: AgentEventDraft[] }> {
    const record = (await this.loadedLedger(sessionId)).get(artifactId);
    const old = record?.versions.get(version);
    if (!record || !old) throw new Error(`Target "${artifactId}" has no version ${version}.`);
    if (old.state === 'rejected' || old.state === 'draft')
      throw new Error(`Version ${version} of "${artifactId}" was never ready.`);
    if (record.current === version) return { version, drafts: [] };
    const next = record.latest + 1;
    const ids = { sessionId, artifactId, time: this.access.now() };
    const drafts: AgentEventDraft[] = [
      {
        type: 'artifact/created',
        ...ids,
        data: {
          kind: 'html-app',
          version: next,
          state: 'draft',
          parts: old.parts,
          restoredFrom: version,
          ...(record.current !== undefined ? { baseVersion: record.current } : {}),
        },
      },
      { type: 'artifact/validating', ...ids, data: { version: next, state: 'validating' } },
      { type: 'artifact/ready', ...ids, data: { version: next, state: 'ready', requested: old.requested } },
    ];
    if (record.current !== undefined)
      drafts.push({
        type: 'artifact/superseded',
        ...ids,
        data: { version: record.current, state: 'superseded', by: next },
      });
    return { version: next, drafts };
  }

  /** The user grants or revokes one permission the current version asks for. */
  setGrant(sessionId: string, artifactId: string, grant: TargetGrant, granted: boolean): Promise<TargetGrant[]> {
    return this.access.lock.run(sessionId, async () => {
      const record = (await this.loadedLedger(sessionId)).get(artifactId);
      const current = record?.current !== undefined ? record.versions.get(record.current) : undefined;
      if (!record || !current) throw new Error(`Target "${artifactId}" has no ready version.`);
      if (granted && !current.requested.some((asked) => sameGrant(asked, grant)))
        throw new Error(`Target "${artifactId}" does not ask for ${grant.permission} ${grant.origin ?? ''}`.trim());
      const has = record.granted.some((known) => sameGrant(known, grant));
      if (has !== granted)
        await this.access.commitDrafts(sessionId, [
          {
            type: granted ? 'artifact/permission-granted' : 'artifact/permission-revoked',
            sessionId,
            artifactId,
            time: this.access.now(),
            data: grant,
          },
        ]);
      return record.granted.map((known) => ({ ...known }));
    });
  }

  /** The ready authored targets of these sessions, as catalog entries. */
  async entries(sessionIds: Iterable<string>): Promise<CatalogEntry[]> {
    const entries: CatalogEntry[] = [];
    for (const sessionId of sessionIds) {
      const ledger = await this.access.lock.run(sessionId, () => this.loadedLedger(sessionId));
      for (const record of ledger.all()) {
        if (record.current === undefined) continue;
        const version = record.versions.get(record.current)!;
        entries.push({
          manifest: await this.manifestOf(version.parts.manifest),
          artifact: {
            sessionId,
            artifactId: record.artifactId,
            version: record.current,
            versions: [...record.versions.values()].map((known) => ({
              version: known.version,
              state: known.state,
              ...(known.restoredFrom !== undefined ? { restoredFrom: known.restoredFrom } : {}),
            })),
            requested: version.requested,
            granted: record.granted.map((grant) => ({ ...grant })),
          },
        });
      }
    }
    return entries;
  }

  /** One version's content (the current one without `version`), for the stage's host page or an export. */
  async load(sessionId: string, artifactId: string, version?: number): Promise<TargetArtifactContent> {
    const record = (await this.access.lock.run(sessionId, () => this.loadedLedger(sessionId))).get(artifactId);
    const wanted = version ?? record?.current;
    if (!record || wanted === undefined) throw new Error(`Target "${artifactId}" has no ready version.`);
    return this.content(record, wanted);
  }

  /** The manifest of the version the current one replaced: the saved values were made under it. */
  async baseManifest(sessionId: string, artifactId: string): Promise<TargetManifest | undefined> {
    const record = (await this.access.lock.run(sessionId, () => this.loadedLedger(sessionId))).get(artifactId);
    const current = record?.current !== undefined ? record.versions.get(record.current) : undefined;
    const base = current?.baseVersion !== undefined ? record?.versions.get(current.baseVersion) : undefined;
    return base ? this.manifestOf(base.parts.manifest) : undefined;
  }

  private async content(record: TargetArtifactRecord, version: number): Promise<TargetArtifactContent> {
    const known = record.versions.get(version);
    if (!known) throw new Error(`Target "${record.artifactId}" has no version ${version}.`);
    const { parts } = known;
    return {
      artifactId: record.artifactId,
      version,
      manifest: await this.manifestOf(parts.manifest),
      files: {
        html: await this.text(parts.html),
        script: await this.text(parts.script),
        ...(parts.css ? { css: await this.text(parts.css) } : {}),
      },
      granted: record.granted.map((grant) => ({ ...grant })),
    };
  }

  private async manifestOf(ref: BlobRef): Promise<TargetManifest> {
    let json: unknown;
    try {
      json = JSON.parse(await this.text(ref));
    } catch {
      json = undefined;
    }
    const parsed = targetManifestSchema.safeParse(json);
    if (!parsed.success) throw new Error(`The stored manifest ${ref.blobId} is not a valid manifest.`);
    return parsed.data;
  }

  private async text(ref: BlobRef): Promise<string> {
    const known = this.texts.get(ref.blobId);
    if (known !== undefined) return known;
    const bytes = await this.access.blobs?.read(ref.blobId);
    if (!bytes) throw new Error(`The content ${ref.name} (${ref.blobId}) is no longer stored.`);
    const text = textDecoder.decode(bytes);
    this.texts.set(ref.blobId, text);
    return text;
  }

  /** The caller holds the session's lock, so no event is committed between the check and the new version. */
  private loadedLedger(sessionId: string): Promise<TargetArtifactLedger> {
    this.used.add(sessionId);
    return this.access.ledger(sessionId);
  }
}
