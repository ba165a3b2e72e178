import { fileDownloadLinkSchema, type FileDownloadLink } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';
import { saveApiAttachment } from '../../../lib/file-download';
import { screenShareTokenPath } from './get-screen-share';

/** GET .../step/:sequence/file: a one-time /file/:token link (10 minutes) to the step's file. */
export function getStepFileLink(token: string, sequence: number): Promise<FileDownloadLink> {
  return apiRequest(`${screenShareTokenPath(token)}/step/${sequence}/file`, {
    schema: fileDownloadLinkSchema,
    anonymous: true,
  });
}

/** Asks for a one-time link and spends it at once through GET /api/file/:token; gives the saved name. */
export async function downloadStepFile(
  token: string,
  sequence: number,
  fallbackName: string,
): Promise<string> {
  const link = await getStepFileLink(token, sequence);
  return saveApiAttachment(`/file/${encodeURIComponent(link.token)}`, fallbackName);
}
