import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { screenShareTokenPath } from './get-screen-share';

/**
 * GET .../step/:sequence/html: the step's normalized page HTML as plain text. It is untrusted page
 * content, so it is only ever shown as text.
 */
export function getStepHtml(token: string, sequence: number): Promise<string> {
  return apiRequest(`${screenShareTokenPath(token)}/step/${sequence}/html`, {
    schema: z.string(),
    anonymous: true,
  });
}
