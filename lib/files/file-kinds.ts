/** The kinds of file the chat takes, by MIME type (apart from the sniffing in inspect-file-bytes, which is heavy). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const PDF_TYPE = 'application/pdf';

export function isImageType(mime: string): boolean {
  return (IMAGE_TYPES as readonly string[]).includes(mime);
}

/** Text the model reads as text; an SVG is one of them, never sent as an image. */
export function isTextType(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/json' || mime === 'image/svg+xml';
}
