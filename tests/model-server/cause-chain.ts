/** An error followed by its `cause`, the cause's cause, and so on. */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current !== undefined && current !== null && !chain.includes(current)) {
    chain.push(current);
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return chain;
}

/** The `code` values along the cause chain, e.g. `ECONNRESET` or `UND_ERR_SOCKET`. */
export function causeCodes(error: unknown): unknown[] {
  return causeChain(error).flatMap((link) =>
    typeof link === 'object' && link !== null && 'code' in link ? [link.code] : [],
  );
}
