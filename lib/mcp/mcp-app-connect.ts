/** The origin a declared connect domain names, when it is an http or https URL (a wildcard is not one). */
export function connectOrigin(domain: string): string | undefined {
  // Checked before parsing: some URL parsers (Chromium's) keep a `*` in a host, escaped.
  if (domain.includes('*')) return undefined;
  try {
    const url = new URL(domain);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The declared origins, once each, in their declared order. */
export function declaredOrigins(declared: readonly string[]): string[] {
  return [...new Set(declared.flatMap((domain) => connectOrigin(domain) ?? []))];
}

/** What an MCP App may reach: the origins its resource declares that the user also granted it, nothing else. */
export function admittedConnect(declared: readonly string[], granted: readonly string[]): string[] {
  const grantedOrigins = new Set(granted.flatMap((domain) => connectOrigin(domain) ?? []));
  return declaredOrigins(declared).filter((origin) => grantedOrigins.has(origin));
}

/** The origin of `url` when an app was admitted to it, else undefined (also for a URL that does not parse). */
export function admittedOrigin(url: string, admitted: readonly string[]): string | undefined {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return undefined;
  }
  return admitted.includes(origin) ? origin : undefined;
}
