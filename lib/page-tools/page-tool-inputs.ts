import { z } from 'zod';
import type { PageChoice } from './choose-page';

const ref = z.string().min(1).max(40);

/** What an action waits for afterwards; without one it waits for the page to settle (DOM quiet about 100 ms, capped). */
export const pageWaitForSchema = z.object({
  condition: z
    .enum([
      'url-matches',
      'visible',
      'hidden',
      'text-appears',
      'text-changes',
      'navigation-done',
      'network-quiet',
      'download-complete',
    ])
    .describe(
      '"url-matches" (value: a substring or /regex/), "visible"/"hidden" (ref or selector), "text-appears" (value), "text-changes" (ref or selector), "navigation-done", "network-quiet", "download-complete" (a download the action started finished).',
    ),
  value: z.string().max(2000).optional(),
  ref: ref.optional(),
  selector: z.string().max(2000).optional(),
  timeoutMs: z.number().int().min(0).max(30_000).optional().describe('Give up after this long (default 5000).'),
});

export const PAGE_ACTIONS = ['click', 'type', 'press', 'select', 'check', 'scroll', 'hover', 'focus', 'drag'] as const;

export const pageToolInputSchemas = {
  observePage: z.object({
    screenshot: z.boolean().optional().describe('true: also capture the visible part of the page as an image.'),
    marks: z
      .boolean()
      .optional()
      .describe(
        'With screenshot: numbered boxes are drawn on the image over the refs in view (Set-of-Marks), and `marks` maps each number to its ref.',
      ),
    scope: ref.optional().describe('Only the subtree of this ref (from an earlier observation), in full.'),
    find: z.string().max(500).optional().describe('Only nodes whose role, name or text contain this text.'),
  }),
  actOnPage: z.object({
    observationId: z.string().min(1).max(200).describe('The observation this action was chosen from.'),
    action: z.enum(PAGE_ACTIONS),
    ref: ref.optional().describe('Preferred target: a ref of that observation, e.g. "e12" or "f1e3".'),
    selector: z.string().max(2000).optional().describe('Else a CSS selector.'),
    role: z.string().max(100).optional().describe('Else a role together with `name`.'),
    name: z.string().max(500).optional(),
    x: z.number().optional().describe('Last resort: a point, in `coordinateSpace`.'),
    y: z.number().optional(),
    coordinateSpace: z
      .enum(['viewport-css', 'screenshot-px'])
      .optional()
      .describe("Required with x/y: CSS pixels of the viewport, or pixels of that observation's screenshot."),
    text: z
      .string()
      .max(10_000)
      .optional()
      .describe('For "type": the text to enter (a date field takes its value whole, e.g. "2026-12-24").'),
    key: z
      .string()
      .max(100)
      .optional()
      .describe('For "press": a key or combination: "Enter", "Escape", "Tab", "Shift+Tab", "ArrowDown", "Control+A".'),
    option: z
      .string()
      .max(500)
      .optional()
      .describe(
        'For "select": the option label (or value). On a <select>; on a combobox (the label is typed in, then its option clicked in the listbox that opens); on a listbox.',
      ),
    toRef: ref.optional().describe('For "drag": the ref (same observation and frame) to drop the target on.'),
    deltaY: z.number().optional().describe('For "scroll": CSS pixels, positive scrolls down.'),
    waitFor: pageWaitForSchema.optional(),
  }),
  uploadFile: z.object({
    observationId: z.string().min(1).max(200).describe('The observation this upload was chosen from.'),
    ref: ref.optional().describe('The file input, or the drop zone, as a ref of that observation.'),
    selector: z.string().max(2000).optional().describe('Else a CSS selector.'),
    file: z
      .string()
      .min(1)
      .max(500)
      .describe('A file the user attached in this conversation: its name (or its sha256).'),
    waitFor: pageWaitForSchema.optional(),
  }),
  navigatePage: z.object({ url: z.string().min(1).max(4000).describe('An http(s) address to open in the page.') }),
  pageBack: z.object({}),
  callPageTool: z.object({
    observationId: z.string().min(1).max(200),
    name: z.string().min(1).max(200).describe("A tool the page lists in the observation's pageTools."),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
} as const;

export type PageToolName = keyof typeof pageToolInputSchemas;
export type PageToolInput<TName extends PageToolName> = z.infer<(typeof pageToolInputSchemas)[TName]>;

export type OpenPage = Extract<PageChoice, { ok: true }>;

export function isPageToolName(name: string): name is PageToolName {
  return Object.hasOwn(pageToolInputSchemas, name);
}
