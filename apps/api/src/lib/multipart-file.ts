import type { FastifyRequest } from 'fastify';
import { MESSAGES, RECOGNITION_PDF_MAX_BYTES, formatMessage, isCleanFileName } from '@pagewright/shared';
import { AppError } from './app-error.js';

/**
 * The one file of a multipart upload (field `file`), read whole up to `maxBytes`. Past the limit
 * the stream is cut and `tooLarge` answers, never a half-read file; no file at all is a 400, and so
 * is a file name with a control character (PostgreSQL text cannot hold NUL; none belongs in a name).
 */
export async function readOneFile(
  request: FastifyRequest,
  options: { maxBytes: number; missing: string; tooLarge: () => AppError },
): Promise<{ name: string; content: Buffer }> {
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file({ limits: { fileSize: options.maxBytes, files: 1, fields: 5 } });
  } catch {
    throw AppError.validation(options.missing, 'file');
  }
  if (!part || part.fieldname !== 'file') throw AppError.validation(options.missing, 'file');
  if (!isCleanFileName(part.filename)) {
    // Drained first: the answer goes out only once the request was read.
    part.file.resume();
    throw AppError.validation(MESSAGES['error.file.name.control'], 'file');
  }
  try {
    const content = await part.toBuffer();
    return { name: part.filename.split(/[/\\]/u).pop() || 'file.pdf', content };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw options.tooLarge();
    throw error;
  }
}

/** A PDF upload (a template's sample, a statement): one file of at most 20 MB. */
export function readOnePdf(request: FastifyRequest, missing: string) {
  return readOneFile(request, {
    maxBytes: RECOGNITION_PDF_MAX_BYTES,
    missing,
    tooLarge: () =>
      new AppError(
        'PAYLOAD_TOO_LARGE',
        formatMessage('template.image.too.large', { mb: RECOGNITION_PDF_MAX_BYTES / (1024 * 1024) }),
        'file',
      ),
  });
}
