import { z } from 'zod';
import { recognitionResultSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /statement-recognition/pdf-to-text/{templateId}: one PDF read with a template. */
export function recognizePdf(templateId: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest(`/statement-recognition/pdf-to-text/${encodeURIComponent(templateId)}`, {
    method: 'POST',
    body: form,
    schema: recognitionResultSchema,
    quiet: true,
  });
}

/** POST /statement-recognition/text-to-csv {token}: one file's values as CSV text. */
export const textToCsv = (token: string) =>
  apiRequest('/statement-recognition/text-to-csv', {
    method: 'POST',
    body: { token },
    schema: z.string(),
    quiet: true,
  });

/** POST /statement-recognition/text-to-csv-consolidated {tokenList}: every processed file's values. */
export const consolidatedCsv = (tokenList: string[]) =>
  apiRequest('/statement-recognition/text-to-csv-consolidated', {
    method: 'POST',
    body: { tokenList },
    schema: z.string(),
    quiet: true,
  });
