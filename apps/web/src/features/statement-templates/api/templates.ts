import { messageResponseSchema, templateDtoSchema } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const base = '/statement-recognition-template';

/** PUT /statement-recognition-template/: a new template (409 on a used name). */
export const createTemplate = (templateName: string) =>
  apiRequest(`${base}/`, { method: 'PUT', body: { templateName }, schema: templateDtoSchema });

/** POST /statement-recognition-template/: rename. */
export const renameTemplate = (id: string, templateName: string) =>
  apiRequest(`${base}/`, { method: 'POST', body: { id, templateName }, schema: templateDtoSchema });

/** POST /statement-recognition-template/copy/{id}: "<name> (copy)" with the same pages and boxes. */
export const copyTemplate = (id: string) =>
  apiRequest(`${base}/copy/${encodeURIComponent(id)}`, { method: 'POST', schema: templateDtoSchema });

/** DELETE /statement-recognition-template/{id}. */
export const deleteTemplate = (id: string) =>
  apiRequest(`${base}/${encodeURIComponent(id)}`, { method: 'DELETE', schema: messageResponseSchema });
