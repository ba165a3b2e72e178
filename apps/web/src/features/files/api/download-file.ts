import { saveApiAttachment } from '../../../lib/file-download';

/** GET /api/file/:token (no session, single use): saves the file; resolves with its name. */
export function downloadFile(token: string, fallbackName: string): Promise<string> {
  return saveApiAttachment(`/file/${encodeURIComponent(token)}`, fallbackName);
}
