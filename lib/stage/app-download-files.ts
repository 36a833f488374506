import {
  MCP_APP_DOWNLOAD_LIMIT,
  MCP_APP_DOWNLOAD_MAX_FILES,
  type McpAppDownloadContent,
  type McpAppDownloadFile,
  type McpAppEmbeddedResource,
  type McpAppResourceLink,
} from '../protocol/mcp-app-download';
import { JSON_RPC_ERRORS, MCP_APP_DECLINED } from '../protocol/mcp-app-wire';
import { mcpAppReadResultSchema, type McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import { downloadFileName, uriFileName } from './download-file-name';

/** A file an app asked to save, with its bytes, as the stage saves it once the user allowed it. */
export interface AppDownloadFile {
  name: string;
  mimeType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** The files of a download, or why it is refused before anyone is asked (a JSON-RPC error for the app). */
export type AppDownloadFiles = { files: AppDownloadFile[] } | { refusal: { code: number; message: string } };

/** A read of the app's own server (the app's `resources/read` route). */
export type ReadOwnResource = (uri: string) => Promise<McpAppToolAnswer>;

// Addresses of the web and of the browser: the host fetches nothing for an app, it only reads its own server.
const NOT_A_RESOURCE =
  /^(https?|ftp|wss?|data|blob|javascript|about|filesystem|view-source|chrome|chrome-extension|moz-extension):/i;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const MEGABYTES = MCP_APP_DOWNLOAD_LIMIT / (1024 * 1024);

/** What a download is to the user: each file's name, type and size, without its bytes. */
export function describedFiles(files: AppDownloadFile[]): McpAppDownloadFile[] {
  return files.map(({ name, mimeType, bytes }) => ({ name, mimeType, size: bytes.length }));
}

/**
 * The files of an app's `ui/download-file`: embedded text and base64 as given, each linked resource read from the
 * app's own server (a web or browser address is refused without reading anything), named after the resource and
 * made safe to save, within `MCP_APP_DOWNLOAD_MAX_FILES` files and `MCP_APP_DOWNLOAD_LIMIT` bytes in all.
 */
export async function appDownloadFiles(
  contents: McpAppDownloadContent[],
  read: ReadOwnResource,
): Promise<AppDownloadFiles> {
  const foreign = contents.find((content) => content.type === 'resource_link' && NOT_A_RESOURCE.test(content.uri));
  if (foreign?.type === 'resource_link')
    return refusal(
      JSON_RPC_ERRORS.invalidParams,
      `Only resources of the app’s own MCP server are downloaded; ${foreign.uri.slice(0, 200)} is not one, and this host fetches nothing from elsewhere.`,
    );
  if (contents.length > MCP_APP_DOWNLOAD_MAX_FILES) return tooMany(contents.length);
  const files: AppDownloadFile[] = [];
  for (const content of contents) {
    if (content.type === 'resource') {
      files.push(embeddedFile(content));
      continue;
    }
    const linked = await linkedFiles(content, read);
    if ('refusal' in linked) return linked;
    files.push(...linked.files);
  }
  if (files.length > MCP_APP_DOWNLOAD_MAX_FILES) return tooMany(files.length);
  const size = files.reduce((total, file) => total + file.bytes.length, 0);
  if (size > MCP_APP_DOWNLOAD_LIMIT)
    return refusal(MCP_APP_DECLINED, `The files come to ${size} bytes; at most ${MEGABYTES} MB are saved at once.`);
  return { files };
}

function refusal(code: number, message: string): AppDownloadFiles {
  return { refusal: { code, message } };
}

function tooMany(count: number): AppDownloadFiles {
  return refusal(
    MCP_APP_DECLINED,
    `${count} files were asked for; at most ${MCP_APP_DOWNLOAD_MAX_FILES} are saved at once.`,
  );
}

function embeddedFile({ resource }: McpAppEmbeddedResource): AppDownloadFile {
  const text = 'text' in resource;
  const mimeType = resource.mimeType || (text ? 'text/plain' : 'application/octet-stream');
  return {
    name: downloadFileName(uriFileName(resource.uri), mimeType),
    mimeType,
    bytes: text ? new TextEncoder().encode(resource.text) : base64Bytes(resource.blob),
  };
}

/**
 * A linked resource as its server gives it: one file named after the link, or a file per part, each named after its
 * own URI or as "name (part 2 of 3)".
 */
async function linkedFiles(link: McpAppResourceLink, read: ReadOwnResource): Promise<AppDownloadFiles> {
  const answer = await read(link.uri);
  if ('error' in answer) return refusal(MCP_APP_DECLINED, `Could not read ${link.uri.slice(0, 200)}: ${answer.error}`);
  const parsed = mcpAppReadResultSchema.safeParse(answer.result);
  if (!parsed.success || parsed.data.contents.length === 0)
    return refusal(MCP_APP_DECLINED, `${link.uri.slice(0, 200)} has no content to save.`);
  const { contents } = parsed.data;
  if (contents.some((part) => 'blob' in part && !BASE64.test(part.blob)))
    return refusal(MCP_APP_DECLINED, `${link.uri.slice(0, 200)} has a part that is not base64.`);
  const files = contents.map((part, index) => {
    const mimeType = part.mimeType || link.mimeType || ('text' in part ? 'text/plain' : 'application/octet-stream');
    const own = part.uri !== link.uri ? uriFileName(part.uri) : '';
    const name = own || (contents.length > 1 ? `${link.name} (part ${index + 1} of ${contents.length})` : link.name);
    return {
      name: downloadFileName(name, mimeType),
      mimeType,
      bytes: 'text' in part ? new TextEncoder().encode(part.text) : base64Bytes(part.blob),
    };
  });
  return { files };
}

function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
