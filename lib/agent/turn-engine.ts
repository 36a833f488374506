import { turnContext } from './turn-context';

type TurnEngine = [
  typeof import('./agent-loop'),
  typeof import('../providers/create-language-model'),
  Awaited<ReturnType<typeof turnContext.load>>,
];

let loading: Promise<TurnEngine> | undefined;

/**
 * The agent loop, the model providers (the AI SDK and its schemas) and the tokenizer, loaded once per document. The
 * panel's first screen does not need them, and evaluating them would hold the main thread while the conversation
 * opens; the panel asks for them as the user starts to write, so that a message does not wait for them.
 */
export function loadTurnEngine(): Promise<TurnEngine> {
  loading ??= Promise.all([import('./agent-loop'), import('../providers/create-language-model'), turnContext.load()]);
  return loading;
}
