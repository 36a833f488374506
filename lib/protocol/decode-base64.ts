import { convertBase64ToUint8Array } from '@ai-sdk/provider-utils';

/** The bytes of a base64 text from outside the extension, or undefined when it is not base64. */
export function decodeBase64(data: string): Uint8Array | undefined {
  try {
    return convertBase64ToUint8Array(data);
  } catch {
    return undefined;
  }
}
