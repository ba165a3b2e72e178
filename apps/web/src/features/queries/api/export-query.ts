import { apiFetch } from '../../../lib/api-client';
import { attachmentFileName } from '../../../lib/file-download';

export interface ExportProgress {
  /** X-Total-Rows: the rows the file holds, known before its bytes arrive. */
  totalRows: number | null;
  receivedBytes: number;
}

/**
 * GET /query/export/excel[?queryId=]: the draft's result (or a saved query's) as {query name}.xlsx,
 * read as it streams: `onProgress` hears of the headers (the rows, X-Total-Rows) and then of every
 * chunk as it arrives, with the bytes received so far. Goes through the API client (bearer header,
 * refresh on a 401, the API's errors; 503 'Too many exports are running…' when the server is full).
 */
export async function exportQuery(options: {
  queryId?: string;
  fallbackName: string;
  signal: AbortSignal;
  onProgress: (progress: ExportProgress) => void;
}): Promise<{ fileName: string; blob: Blob }> {
  const path = options.queryId
    ? `/query/export/excel?queryId=${encodeURIComponent(options.queryId)}`
    : '/query/export/excel';
  const response = await apiFetch(path, { signal: options.signal });
  const fileName = attachmentFileName(response.headers.get('content-disposition')) ?? options.fallbackName;
  const totalHeader = response.headers.get('x-total-rows');
  const totalRows = totalHeader === null || totalHeader === '' ? null : Number(totalHeader);
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  if (!response.body) return { fileName, blob: await response.blob() };

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let receivedBytes = 0;
  options.onProgress({ totalRows, receivedBytes });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    receivedBytes += value.byteLength;
    options.onProgress({ totalRows, receivedBytes });
  }
  return { fileName, blob: new Blob(chunks as BlobPart[], { type }) };
}
