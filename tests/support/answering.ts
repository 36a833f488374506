import type { Script } from '../../scripts/scripted-model-server/script';

/** A script whose turns each answer with their own text, whatever was asked: `answers[n]` replies to the (n+1)th message. */
export function answering(...answers: string[]): Script {
  return { turns: answers.map((text) => ({ steps: [{ text }] })) };
}
