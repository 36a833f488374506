import type { BlobStore } from '../files/blob-store';
import { checkBase64Images, type CheckedImage, type ImagesCheck } from '../files/check-base64-images';
import type { BlobRef } from '../protocol/blob-ref';
import type { JsonObject } from '../protocol/json-value';
import { MCP_APP_IMAGE_LIMITS, type McpAppImage, type McpAppImageLimits } from '../protocol/mcp-app-images';
import type { McpAppRequest, McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { APP_MESSAGE_TOOL, APP_OPEN_LINK_TOOL, type AppMessageDrafts } from '../mcp/mcp-app-request-tools';
import { APP_DOWNLOAD_TOOL, type McpAppDownloadFile } from '../protocol/mcp-app-download';
import { formatFileSize } from '../files/format-file-size';
import type { ToolExecutionResult } from '../protocol/tool-execution-request';
import { errorText } from '../protocol/error-text';
import type { McpAppToolCall } from '../targets/stage-link';
import type { AppToolCall } from './app-tool-call';

/** An app open in the stage: the conversation it was opened in and the server whose tools it may call. */
export interface OpenedMcpApp {
  sessionId: string;
  serverId: string;
  serverName: string;
  title: string;
}

/** What an app told the model (`ui/update-model-context`), as the runtime records it. */
export interface AppModelContext {
  text: string;
  structuredContent?: JsonObject;
  images?: BlobRef[];
}

type AppRequestOf<Method extends McpAppRequest['method']> = Extract<McpAppRequest, { method: Method }>;

export interface McpAppCallsDependencies {
  appToolName(serverId: string, toolName: string): Promise<string | undefined>;
  runAppToolCall(call: AppToolCall): Promise<ToolExecutionResult>;
  answer(targetId: string, requestId: string, answer: McpAppToolAnswer): void;
  /** An app's `resources/read` on its own server. */
  readResource(serverId: string, uri: string): Promise<McpAppToolAnswer>;
  /** An app's `resources/list` on its own server: the page at `cursor`. */
  listResources(serverId: string, cursor: string | undefined): Promise<McpAppToolAnswer>;
  /** Opens an http(s) link the user allowed in a new tab. */
  openLink(url: string): Promise<void>;
  /** An app this runtime did not open (it restarted since): what its opening in the log says of it. */
  recoverApp(targetId: string): Promise<OpenedMcpApp | undefined>;
  /** Where an app's message waits while the user decides (the approval card shows it from there). */
  messages: AppMessageDrafts;
  /** Records what the app `targetId` told the model, in its conversation's log. */
  recordContext(app: OpenedMcpApp, targetId: string, context: AppModelContext): Promise<void>;
  /** Where the images of apps' messages and contexts are kept. */
  blobStore: BlobStore;
  /** Why the endpoint in use cannot take images, or undefined when it can. */
  imageRefusal(): Promise<string | undefined>;
}

const UNKNOWN_APP = 'This app is not known to the extension any more; ask for it to be opened again.';

/** At most this many apps are remembered; the stage shows one at a time, older ones only answer "closed". */
const MAX_APPS = 20;
/** Context updates one app may write to the log (after that it is refused): an app in a loop must not fill it. */
export const MAX_CONTEXT_UPDATES = 100;

/** A tool output of this extension as the CallToolResult an app expects: its text, structured content, error flag. */
export function callToolResultOf(result: ToolExecutionResult): McpAppToolAnswer {
  if (result.status === 'waiting') return { error: 'The call is still waiting for the user.' };
  const output = (typeof result.output === 'object' && result.output !== null ? result.output : {}) as JsonObject;
  if (result.status === 'denied' || result.status === 'unknown')
    return { error: String(output.reason ?? output.error ?? result.status) };
  const text = typeof output.text === 'string' ? output.text : typeof output.error === 'string' ? output.error : '';
  return {
    result: {
      content: [{ type: 'text', text }],
      ...(output.structuredContent !== undefined ? { structuredContent: output.structuredContent } : {}),
      ...(result.status === 'failed' ? { isError: true } : {}),
    },
  };
}

/** The runtime's side of MCP Apps' own tool calls: which app is open where, and each of its calls run and answered. */
export class McpAppCalls {
  private readonly apps = new Map<string, OpenedMcpApp>();
  /** Per app: how many contexts it had recorded, and the last one, which an identical update does not repeat. */
  private readonly contexts = new Map<string, { count: number; last: string }>();

  constructor(private readonly dependencies: McpAppCallsDependencies) {}

  opened(targetId: string, app: OpenedMcpApp): void {
    this.apps.set(targetId, app);
    for (const oldest of [...this.apps.keys()].slice(0, Math.max(0, this.apps.size - MAX_APPS))) {
      this.apps.delete(oldest);
      this.contexts.delete(oldest);
    }
  }

  async call(targetId: string, requestId: string, call: McpAppToolCall): Promise<void> {
    this.dependencies.answer(targetId, requestId, await this.answerOf(targetId, call));
  }

  /** An app's request (a message, a link, a download, a resource, its context), answered once served or refused. */
  async request(targetId: string, requestId: string, request: McpAppRequest): Promise<void> {
    this.dependencies.answer(targetId, requestId, await this.requestAnswer(targetId, request));
  }

  /** The app's conversation and server: remembered when it was opened, else found in the log after a restart. */
  private async appOf(targetId: string): Promise<OpenedMcpApp | undefined> {
    const known = this.apps.get(targetId);
    if (known) return known;
    const recovered = await this.dependencies.recoverApp(targetId).catch(() => undefined);
    if (recovered) this.opened(targetId, recovered);
    return recovered;
  }

  private async requestAnswer(targetId: string, request: McpAppRequest): Promise<McpAppToolAnswer> {
    const app = await this.appOf(targetId);
    if (!app) return { error: UNKNOWN_APP };
    try {
      if (request.method === 'resources/read') return await this.dependencies.readResource(app.serverId, request.uri);
      if (request.method === 'resources/list')
        return await this.dependencies.listResources(app.serverId, request.cursor);
      if (request.method === 'ui/message') return await this.message(app, request);
      if (request.method === 'ui/download-file') return await this.download(app, request.files);
      if (request.method === 'ui/update-model-context') return await this.context(app, targetId, request);
      const asked = await this.dependencies.runAppToolCall({
        sessionId: app.sessionId,
        note: `The MCP App “${app.title}” asks to open ${request.url} in a new tab.`,
        toolName: APP_OPEN_LINK_TOOL,
        input: { app: app.title, url: request.url },
      });
      if (asked.status !== 'completed') return { error: 'Link opening denied by the user.' };
      await this.dependencies.openLink(request.url);
      return { result: {} };
    } catch (error) {
      return { error: `The request failed: ${errorText(error)}` };
    }
  }

  /**
   * The context goes to the log without asking (the panel shows it, and the model reads it with the user's next
   * message); the same context again is not written again, and an app past its count is refused. Its images are
   * checked before anything is kept, and kept (owned by the app) before the context names them.
   */
  private async context(
    app: OpenedMcpApp,
    targetId: string,
    context: AppRequestOf<'ui/update-model-context'>,
  ): Promise<McpAppToolAnswer> {
    const checked = await this.checkImages(app, context.images, MCP_APP_IMAGE_LIMITS.context);
    if (!checked.ok) return { error: `Context update refused: ${checked.reason}` };
    const images = checked.images.map((image) => image.ref);
    const written = JSON.stringify([
      context.text,
      context.structuredContent ?? null,
      images.map((image) => image.sha256),
    ]);
    const known = this.contexts.get(targetId) ?? { count: 0, last: '' };
    if (known.count > 0 && known.last === written) return { result: {} };
    if (known.count >= MAX_CONTEXT_UPDATES)
      return { error: `Context update denied: this app has updated the model's context ${MAX_CONTEXT_UPDATES} times.` };
    await this.keepImages(app, targetId, checked.images);
    await this.dependencies.recordContext(app, targetId, {
      text: context.text,
      ...(context.structuredContent ? { structuredContent: context.structuredContent } : {}),
      ...(images.length ? { images } : {}),
    });
    this.contexts.set(targetId, { count: known.count + 1, last: written });
    return { result: {} };
  }

  /**
   * The user's word on saving the files, whose names, types and sizes the card shows; the stage holds the bytes and
   * saves them once this is allowed.
   */
  private async download(app: OpenedMcpApp, files: McpAppDownloadFile[]): Promise<McpAppToolAnswer> {
    const asked = await this.dependencies.runAppToolCall({
      sessionId: app.sessionId,
      note: `The MCP App “${app.title}” asks to save ${files.length === 1 ? files[0].name : `${files.length} files`}.`,
      toolName: APP_DOWNLOAD_TOOL,
      input: {
        app: app.title,
        files: files.map((file) => ({ name: file.name, type: file.mimeType, size: formatFileSize(file.size) })),
      },
    });
    return asked.status === 'completed' ? { result: {} } : { error: 'Download denied by the user.' };
  }

  /** Refused as a whole, before anything is kept, when the endpoint takes no images or one of them fails a check. */
  private async checkImages(
    app: OpenedMcpApp,
    images: readonly McpAppImage[] | undefined,
    limits: McpAppImageLimits,
  ): Promise<ImagesCheck> {
    if (!images?.length) return { ok: true, images: [] };
    const refusal = await this.dependencies.imageRefusal();
    if (refusal) return { ok: false, reason: refusal };
    return checkBase64Images(images, { name: `${app.title.slice(0, 200)}-image`, maxBytes: limits.bytes });
  }

  private async keepImages(app: OpenedMcpApp, ownerId: string, images: readonly CheckedImage[]): Promise<void> {
    for (const { bytes, ref } of images)
      await this.dependencies.blobStore.put({ bytes, ref, sessionId: app.sessionId, ownerId });
  }

  /**
   * The message is held, not put in the call's input, so that a denied one never reaches the model. Its images
   * are checked before anything is held, and kept before the approval card that shows them is asked for.
   */
  private async message(app: OpenedMcpApp, request: AppRequestOf<'ui/message'>): Promise<McpAppToolAnswer> {
    const { messages } = this.dependencies;
    const checked = await this.checkImages(app, request.images, MCP_APP_IMAGE_LIMITS.message);
    if (!checked.ok) return { error: `The message was not sent: ${checked.reason}` };
    const messageId = messages.hold(request.text);
    if (!messageId) return { error: 'Too many messages of apps are waiting for the user.' };
    try {
      await this.keepImages(app, messageId, checked.images);
      messages.attachImages(
        messageId,
        checked.images.map((image) => image.ref),
      );
      const asked = await this.dependencies.runAppToolCall({
        sessionId: app.sessionId,
        note: `The MCP App “${app.title}” asks to add a message to the conversation.`,
        toolName: APP_MESSAGE_TOOL,
        input: { app: app.title, messageId },
      });
      return asked.status === 'completed' ? { result: {} } : { error: 'Message sending denied by the user.' };
    } finally {
      messages.release(messageId);
    }
  }

  private async answerOf(targetId: string, call: McpAppToolCall): Promise<McpAppToolAnswer> {
    const app = await this.appOf(targetId);
    // An app whose opening is not in the log is refused rather than run in some other conversation.
    if (!app) return { error: UNKNOWN_APP };
    try {
      const toolName = await this.dependencies.appToolName(app.serverId, call.name);
      if (!toolName) return { error: `The app's server offers no tool named ${call.name}.` };
      const result = await this.dependencies.runAppToolCall({
        sessionId: app.sessionId,
        note: `The MCP App “${app.title}” calls ${call.name} with ${JSON.stringify(call.arguments).slice(0, 200)}.`,
        toolName,
        input: call.arguments,
      });
      return callToolResultOf(result);
    } catch (error) {
      return { error: `The call failed: ${errorText(error)}` };
    }
  }
}
