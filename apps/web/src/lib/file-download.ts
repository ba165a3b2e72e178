import { errorResponseSchema } from '@pagewright/shared';
import { ApiError, apiFetch } from './api-client';

/**
 * The file name an attachment answer gives: RFC 6266 `filename*` (UTF-8) first, then the ASCII
 * `filename` fallback.
 */
export function attachmentFileName(contentDisposition: string | null): string | null {
  if (!contentDisposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(contentDisposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed encoding falls back to the plain name.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(contentDisposition)?.[1] ?? null;
}

async function downloadError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const parsed = errorResponseSchema.safeParse(body);
  if (parsed.success)
    return new ApiError({ status: response.status, ...parsed.data, hasServerMessage: true });
  return new ApiError({
    status: response.status,
    message: response.statusText || `HTTP ${response.status}`,
    hasServerMessage: false,
  });
}

/** Hands a blob to the browser's save flow under `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download manager; a short delay keeps slow browsers safe.
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Hands an attachment answer to the browser's save flow; resolves with the saved file's name. */
async function saveResponse(response: Response, fallbackName: string): Promise<string> {
  const fileName = attachmentFileName(response.headers.get('content-disposition')) ?? fallbackName;
  saveBlob(await response.blob(), fileName);
  return fileName;
}

/**
 * Downloads an attachment of the API (`/api` + path) without a session and hands it to the
 * browser's save flow; resolves with the saved file's name. The bytes go through a blob URL rather
 * than a plain link so a failure (a spent one-time link) can be shown on the page instead of
 * navigating the tab to a JSON error.
 */
export async function saveApiAttachment(path: string, fallbackName: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ApiError({ status: 0, message, code: 'NETWORK_ERROR', hasServerMessage: false });
  }
  if (!response.ok) throw await downloadError(response);
  return saveResponse(response, fallbackName);
}

/**
 * The same for an attachment that needs the session (a run's files): the bearer header goes
 * along, so a plain link cannot fetch it.
 */
export async function saveSessionAttachment(path: string, fallbackName: string): Promise<string> {
  return saveResponse(await apiFetch(path), fallbackName);
}
