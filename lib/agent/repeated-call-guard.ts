function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) =>
      left.localeCompare(right),
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export function callKey(toolName: string, input: unknown): string {
  return `${toolName}:${canonical(input)}`;
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
