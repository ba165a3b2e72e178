import { MESSAGE_TOKEN_HEADER } from '@pagewright/shared';
import { apiFetch } from '../../../lib/api-client';
import { attachmentFileName, saveBlob } from '../../../lib/file-download';

/** GET /message/attachment/{id}: the file's bytes, saved under its own name. */
export async function downloadAttachment(id: string, name: string, linkToken: string | null): Promise<void> {
  const response = await apiFetch(`/message/attachment/${encodeURIComponent(id)}`, {
    // The bytes, not the spec's JSON form ({name, content}) that Accept: application/json gets.
    headers: {
      Accept: 'application/octet-stream',
      ...(linkToken ? { [MESSAGE_TOKEN_HEADER]: linkToken } : {}),
    },
  });
  saveBlob(await response.blob(), attachmentFileName(response.headers.get('content-disposition')) ?? name);
}
