import { apiFetch } from '../../../lib/api-client';
import { attachmentFileName } from '../../../lib/file-download';

export interface ExportProgress {
  /** X-Total-Rows: the rows the file holds, known before its bytes arrive. */
  totalRows: number | null;
  receivedBytes: number;
}

/** Progress is reported at most this often: a large export arrives in thousands of chunks. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * GET /query/export/excel[?queryId=]: the draft's result (or a saved query's) as {query name}.xlsx,
 * read as it streams so the caller can show rows and bytes received. Goes through the API client
 * (bearer header, refresh on a 401, the API's errors).
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
  let reportedAt = 0;
  options.onProgress({ totalRows, receivedBytes });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    receivedBytes += value.byteLength;
    const now = Date.now();
    if (now - reportedAt >= PROGRESS_INTERVAL_MS) {
      reportedAt = now;
      options.onProgress({ totalRows, receivedBytes });
    }
  }
  options.onProgress({ totalRows, receivedBytes });
  return { fileName, blob: new Blob(chunks as BlobPart[], { type }) };
}
