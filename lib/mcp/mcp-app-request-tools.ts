import { z } from 'zod';
import type { BlobRef } from '../protocol/blob-ref';
import type { JsonValue } from '../protocol/json-value';
import { APP_DOWNLOAD_TOOL } from '../protocol/mcp-app-download';
import type { ToolOutput } from '../protocol/tool-output';
import type { McpToolRunner } from './mcp-tool-family';

/**
 * What an MCP App asks of the user rather than of its server: a message added to the conversation, a link opened
 * in a new tab and files saved (`APP_DOWNLOAD_TOOL`). Each is a call of its own in the app's turn, so the user's
 * approval card, the log and the model's history hold it as they hold the app's tool calls. The call only records
 * the user's consent; the link is opened by `McpAppCalls` and the files saved by the stage once the call has
 * completed, so a model that names one of these tools (they are never offered to it) gets an approval card and
 * changes nothing.
 */
export const APP_MESSAGE_TOOL = 'app_send_message';
export const APP_OPEN_LINK_TOOL = 'app_open_link';
const APP_REQUEST_TOOLS = new Set([APP_MESSAGE_TOOL, APP_OPEN_LINK_TOOL, APP_DOWNLOAD_TOOL]);

/** The files of a download call's input, as the card names them (read from the log, so checked). */
const downloadInputSchema = z.object({
  files: z.array(z.object({ name: z.string(), type: z.string(), size: z.string() })).min(1),
});

/** Messages held until the user decides; more are refused rather than kept. */
const MAX_HELD = 20;

/** An app's message: its text and the stored images it gave. */
interface HeldMessage {
  text: string;
  images: BlobRef[];
}

/**
 * An app's messages waiting for the user, by id. The call's input names only the id: the model's history replays
 * a call's input, and a message the user denied must not reach the model; the text and images are in the approval
 * card (for the user) and, once allowed, in the call's result (for the model).
 */
export class AppMessageDrafts {
  private readonly held = new Map<string, HeldMessage>();

  constructor(private readonly newId: () => string) {}

  hold(text: string): string | undefined {
    if (this.held.size >= MAX_HELD) return undefined;
    const messageId = this.newId();
    this.held.set(messageId, { text, images: [] });
    return messageId;
  }

  /** The images of a held message, once stored. */
  attachImages(messageId: string, images: readonly BlobRef[]): void {
    const message = this.held.get(messageId);
    if (message) this.held.set(messageId, { ...message, images: [...images] });
  }

  text(messageId: string): string | undefined {
    return this.held.get(messageId)?.text;
  }

  images(messageId: string): BlobRef[] {
    return this.held.get(messageId)?.images ?? [];
  }

  release(messageId: string): void {
    this.held.delete(messageId);
  }
}

function field(input: JsonValue, name: string): string {
  const value = typeof input === 'object' && input !== null && !Array.isArray(input) ? input[name] : undefined;
  return typeof value === 'string' ? value : '';
}

function imageCount(images: readonly BlobRef[]): string {
  return images.length === 1 ? '1 image' : `${images.length} images`;
}

/** The message as the card quotes it: its text, and how many images it has (the card shows them). */
function quoted(text: string, images: readonly BlobRef[]): string {
  if (images.length === 0) return `“${text.slice(0, 2000)}”`;
  return text ? `“${text.slice(0, 2000)}”, with ${imageCount(images)}` : imageCount(images);
}

/** "a.csv (text/csv, 27 B)", or "2 files: a.csv (text/csv, 27 B), b.png (image/png, 4 KB)". */
function downloadList(input: JsonValue): string {
  const parsed = downloadInputSchema.safeParse(input);
  if (!parsed.success) return 'files it does not name';
  const named = parsed.data.files
    .slice(0, 10)
    .map((file) => `${file.name.slice(0, 200)} (${file.type.slice(0, 100)}, ${file.size.slice(0, 20)})`);
  return named.length === 1 ? named[0] : `${parsed.data.files.length} files: ${named.join(', ')}`;
}

function summaryOf(toolName: string, input: JsonValue, drafts: AppMessageDrafts | undefined): string {
  const app = field(input, 'app').slice(0, 200);
  if (toolName === APP_OPEN_LINK_TOOL)
    return `Open ${field(input, 'url').slice(0, 500)} in a new tab, as the MCP App “${app}” asks.`;
  if (toolName === APP_DOWNLOAD_TOOL) return `The MCP App “${app}” wants to save ${downloadList(input)}.`;
  const messageId = field(input, 'messageId');
  const text = drafts?.text(messageId);
  if (text === undefined)
    return `Add a message of the MCP App “${app}” that is no longer held (nothing will be added).`;
  return `Add the MCP App “${app}”’s message to this conversation: ${quoted(text, drafts!.images(messageId))}`;
}

/** The allowed message as the call's result: its text, and its images as a tool result's images (BlobRefs). */
function addedMessage(app: string, text: string, images: BlobRef[]): ToolOutput {
  const added = `The user added the MCP App “${app}”’s message: ${images.length === 0 ? text : quoted(text, images)}`;
  return images.length === 0 ? { ok: true, text: added } : { ok: true, text: added, images };
}

/** The runner of one of the app request tools, always asking the user; undefined for any other name. */
export function mcpAppRequestRunner(toolName: string, drafts?: AppMessageDrafts): McpToolRunner | undefined {
  if (!APP_REQUEST_TOOLS.has(toolName)) return undefined;
  return {
    name: toolName,
    runsOn: 'mcp',
    sideEffect: 'side-effecting',
    execute: async (input): Promise<ToolOutput> => {
      if (toolName === APP_OPEN_LINK_TOOL) return { ok: true, text: 'The user allowed the link to be opened.' };
      if (toolName === APP_DOWNLOAD_TOOL) return { ok: true, text: 'The user allowed the files to be saved.' };
      const messageId = field(input, 'messageId');
      const text = drafts?.text(messageId);
      if (text === undefined) return { ok: false, error: 'The app’s message is no longer held; nothing was added.' };
      return addedMessage(field(input, 'app'), text, drafts!.images(messageId));
    },
    recover: async () => ({ kind: 'unknown' }),
    approve: async (input, services) => {
      const images = toolName === APP_MESSAGE_TOOL ? (drafts?.images(field(input, 'messageId')) ?? []) : [];
      return {
        required: true,
        summary: summaryOf(toolName, input, drafts),
        ...(images.length ? { images } : {}),
        expiresAfterMs: (await services.policy()).expiresAfterSeconds * 1000,
      };
    },
  };
}
