/** Replaces every secret (an API key echoed in a provider's error message, say) before the text reaches an event. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret.length >= 4)
    .reduce((current, secret) => current.split(secret).join('[redacted]'), text);
}
