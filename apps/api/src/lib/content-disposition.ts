/**
 * RFC 6266 `attachment` header for a download under its own name: an ASCII fallback name plus the
 * exact UTF-8 name (RFC 5987 `filename*`). Quotes, backslashes and control characters never reach
 * the header, so a name cannot end it or add another.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  const exact = encodeURIComponent(fileName).replace(
    /['()*!]/gu,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
