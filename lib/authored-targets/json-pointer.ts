/** A JSON Pointer (RFC 6901) for a path of keys and indexes, e.g. `["params", "view", "position"]` → `/params/view/position`. */
export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
