import { canonicalJson } from '../protocol/canonical-json';

export function callKey(toolName: string, input: unknown): string {
  return `${toolName}:${canonicalJson(input)}`;
}

/** True when a step repeats, call for call, exactly what the previous step asked. */
export function repeatsPreviousStep(previous: readonly string[], current: readonly string[]): boolean {
  if (current.length === 0 || previous.length !== current.length) return false;
  const remaining = [...previous];
  for (const key of current) {
    const index = remaining.indexOf(key);
    if (index < 0) return false;
    remaining.splice(index, 1);
  }
  return true;
}
