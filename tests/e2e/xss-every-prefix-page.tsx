/**
 * A browser program (bundled by tests/e2e/markdown-xss-corpus.test.ts): renders every prefix of every corpus
 * document through the panel's own MarkdownView, first as a stream (one root, each prefix in turn, as the
 * panel does) and then as a finished message, scanning the DOM after each render.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { MarkdownView } from '../../components/markdown/markdown-view';
import { loadHighlighter } from '../../lib/markdown/load-highlighter';
import type { XssDocument } from './xss-corpus';
import { installXssWatch } from './xss-watch';

export interface EveryPrefixResult {
  /** What the canaries caught when a known payload was inserted on purpose, before the corpus (proves they work). */
  control: { executed: number; cspViolations: number; violations: number };
  documents: number;
  streamingRenders: number;
  finalRenders: number;
}

declare global {
  interface Window {
    __everyPrefixResult?: EveryPrefixResult;
    __everyPrefixError?: string;
  }
}

const yieldToEvents = () => new Promise((resolve) => setTimeout(resolve, 0));

function prefixes(text: string): string[] {
  const characters = Array.from(text);
  return characters.map((_, index) => characters.slice(0, index + 1).join(''));
}

async function positiveControl(): Promise<EveryPrefixResult['control']> {
  const scratch = document.createElement('div');
  document.body.append(scratch);
  scratch.innerHTML = `<img src="data:," onerror="__xss('control')">`;
  window.__xssScan!(scratch);
  await new Promise((resolve) => setTimeout(resolve, 200));
  scratch.remove();
  const watch = window.__xssWatch!;
  const control = {
    executed: watch.executed.length,
    cspViolations: watch.cspViolations.length,
    violations: watch.violations.length,
  };
  watch.executed.length = 0;
  watch.cspViolations.length = 0;
  watch.violations.length = 0;
  watch.scans = 0;
  return control;
}

async function renderEveryPrefix(documents: XssDocument[]): Promise<EveryPrefixResult> {
  const control = await positiveControl();
  // Loaded up front, so that every render, the first included, goes through highlighting as it did when it was static.
  await loadHighlighter();
  const container = document.createElement('div');
  container.className = 'message-list';
  document.body.append(container);
  const result: EveryPrefixResult = { control, documents: documents.length, streamingRenders: 0, finalRenders: 0 };
  for (const { markdown } of documents) {
    for (const streaming of [true, false]) {
      const root = createRoot(container);
      for (const prefix of prefixes(markdown)) {
        flushSync(() => root.render(<MarkdownView text={prefix} streaming={streaming} />));
        window.__xssScan!(container);
        if (streaming) result.streamingRenders += 1;
        else result.finalRenders += 1;
      }
      // Handlers such as onerror fire asynchronously: give them their chance while the document is shown.
      await yieldToEvents();
      root.unmount();
    }
  }
  return result;
}

installXssWatch(null);
fetch('/documents.json')
  .then((response) => response.json() as Promise<XssDocument[]>)
  .then(renderEveryPrefix)
  .then(
    (result) => {
      window.__everyPrefixResult = result;
    },
    (error: unknown) => {
      window.__everyPrefixError = String(error);
    },
  );
