import type { Root } from 'hast';

export type HighlightPlugin = () => (tree: Root) => void;

let loaded: HighlightPlugin | undefined;
let loading: Promise<HighlightPlugin> | undefined;

/** The highlighting rehype plugin once its chunk (lowlight and its grammars) has loaded; until then undefined. */
export function loadedHighlighter(): HighlightPlugin | undefined {
  return loaded;
}

/** Loads syntax highlighting, once per page, the first time a message has code to colour. */
export function loadHighlighter(): Promise<HighlightPlugin> {
  loading ??= import('./highlight-code').then((module) => (loaded = module.highlightCode));
  return loading;
}

/** Whether the markdown has a fenced code block that names its language: the only code highlighting colours. */
export function hasLabelledFence(markdown: string): boolean {
  return /^ {0,3}(`{3,}|~{3,})[ \t]*[^\s`~]/m.test(markdown);
}
