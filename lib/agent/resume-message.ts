import type { ModelMessage } from 'ai';
import type { JsonValue } from '../protocol/json-value';

/** What the model is told when a paused turn goes on: the note, and the page as it is now when there is one. */
export function resumeMessage(note: string, observation: JsonValue | undefined): ModelMessage {
  if (observation === undefined) return { role: 'user', content: note };
  return {
    role: 'user',
    content: `${note}\n\nThe page as it is now (observePage's output, taken on resume):\n${JSON.stringify(observation)}`,
  };
}
