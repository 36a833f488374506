/** 16 random bytes as hex, fresh on every call. */
export function randomHex(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
