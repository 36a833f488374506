import type { EndpointSettings } from '../settings/endpoint-settings';

const MB = 1024 * 1024;

/**
 * What the panel accepts at all, checked before anything decodes the bytes (the pixel count comes from the
 * image header). They bound what a file can cost this browser, whichever endpoint it later goes to.
 */
export const INTAKE_LIMITS = {
  maxFileBytes: 20 * MB,
  maxTextBytes: 1 * MB,
  /** 50 megapixels: more than any provider takes (the largest edge below is 8000) and a bound on the decode. */
  maxPixels: 50_000_000,
  /** The strictest PDF page limit of the providers that take PDFs (OpenAI and Anthropic: 100). */
  maxPdfPages: 100,
  maxFilesPerMessage: 10,
} as const;

/** The five kinds the model can be reached by, OpenAI split by its two APIs. */
export type FileEndpointKind =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic'
  | 'google'
  | 'openai-compatible'
  | 'ai-sdk-chat'
  | 'chrome-on-device';

export interface EndpointFileLimits {
  /** The longest image edge sent; larger images are scaled down before sending. */
  maxImageEdge: number;
  /** Whether it takes images at all: one that does not is refused them before anything is sent. */
  images: boolean;
  /** The most bytes one image may have after re-encoding. */
  maxImageBytes: number;
  pdf: boolean;
  /** Where images in tool results go: inside the tool result, or in a user message after it. */
  toolResultImages: 'in-result' | 'follow-up-message';
  /** Where the figures come from. */
  source: string;
}

/**
 * One table, per endpoint kind. Figures from the providers' documentation (read December 2026):
 * - OpenAI: platform.openai.com/docs/guides/images-vision ("high" detail fits the image in 2048 × 2048; at most
 *   50 MB per request, 20 MB per image in the earlier guide) and /docs/guides/pdf-files (PDF input, 100 pages,
 *   32 MB per request). Tool results: the Responses API takes `input_image` in `function_call_output`; chat
 *   completions' tool messages are text only.
 * - Anthropic: docs.anthropic.com/en/docs/build-with-claude/vision (5 MB per image through the API, longest edge
 *   over 1568 px is scaled down by the server, 8000 px hard cap) and /pdf-support (32 MB, 100 pages); images
 *   are allowed inside `tool_result`. Checked again on 2026-12-01 against platform.claude.com's vision page (8000 ×
 *   8000 px cap, 1568 px scaling, 32 MB per request) and the API's own error ("image exceeds 5 MB maximum").
 * - Gemini: ai.google.dev/gemini-api/docs/image-understanding (inline data: the whole request under 20 MB;
 *   images scaled to fit 3072 × 3072) and /document-processing (PDF, up to 1000 pages); function responses
 *   may carry inline images.
 * - OpenAI-compatible servers (Ollama, llama.cpp, vLLM …) have no common document: OpenAI's image figures, no
 *   PDF (most of them refuse the `file` part), text files as text.
 * - AI SDK chat servers: file parts go to whatever model the server runs; OpenAI's image figures, PDFs as
 *   file parts.
 * - Chrome's on-device model (Prompt API through @browser-ai/core) takes images but no PDF and publishes no size
 *   limit: OpenAI's image figures.
 */
export const ENDPOINT_FILE_LIMITS: Record<FileEndpointKind, EndpointFileLimits> = {
  'openai-chat': {
    maxImageEdge: 2048,
    images: true,
    maxImageBytes: 20 * MB,
    pdf: true,
    toolResultImages: 'follow-up-message',
    source: 'platform.openai.com/docs/guides/images-vision, /docs/guides/pdf-files',
  },
  'openai-responses': {
    maxImageEdge: 2048,
    images: true,
    maxImageBytes: 20 * MB,
    pdf: true,
    toolResultImages: 'in-result',
    source: 'platform.openai.com/docs/guides/images-vision, /docs/guides/pdf-files',
  },
  anthropic: {
    maxImageEdge: 1568,
    images: true,
    maxImageBytes: 3.75 * MB,
    pdf: true,
    toolResultImages: 'in-result',
    source: 'docs.anthropic.com/en/docs/build-with-claude/vision (5 MB of base64 = 3.75 MB of bytes), /pdf-support',
  },
  google: {
    maxImageEdge: 3072,
    images: true,
    maxImageBytes: 7 * MB,
    pdf: true,
    toolResultImages: 'in-result',
    source: 'ai.google.dev/gemini-api/docs/image-understanding, /document-processing',
  },
  'openai-compatible': {
    maxImageEdge: 2048,
    images: true,
    maxImageBytes: 20 * MB,
    pdf: false,
    toolResultImages: 'follow-up-message',
    source: "OpenAI's image figures; no PDF",
  },
  'ai-sdk-chat': {
    maxImageEdge: 2048,
    images: true,
    maxImageBytes: 20 * MB,
    pdf: true,
    toolResultImages: 'follow-up-message',
    source: "OpenAI's image figures; PDFs as file parts",
  },
  'chrome-on-device': {
    maxImageEdge: 2048,
    images: true,
    maxImageBytes: 20 * MB,
    pdf: false,
    toolResultImages: 'follow-up-message',
    source:
      "developer.chrome.com/docs/ai/prompt-api (image input, no PDF; no published size limit): OpenAI's image figures",
  },
};

export function fileEndpointKind(settings: Pick<EndpointSettings, 'kind'> & { api?: string }): FileEndpointKind {
  if (settings.kind === 'openai') return settings.api === 'responses' ? 'openai-responses' : 'openai-chat';
  return settings.kind;
}
