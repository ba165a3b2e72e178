import { z } from 'zod';
import {
  messageResponseSchema,
  templateImageDtoSchema,
  templateMappingDtoSchema,
  type TemplateBox,
} from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

const base = '/statement-recognition-template';

/** GET …/images/template/{id}: the pages, each with a signed address its <img> loads. */
export const listTemplatePages = (templateId: string) =>
  apiRequest(`${base}/images/template/${encodeURIComponent(templateId)}`, {
    schema: z.array(templateImageDtoSchema),
    quiet: true,
  });

/** POST …/upload-pdf/{id}: the sample PDF; its pages are drawn in the background (202). */
export function uploadSample(templateId: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest(`${base}/upload-pdf/${encodeURIComponent(templateId)}`, {
    method: 'POST',
    body: form,
    schema: messageResponseSchema,
  });
}

/** DELETE …/image/{id}: one page with its boxes. */
export const deletePage = (imageId: string) =>
  apiRequest(`${base}/image/${encodeURIComponent(imageId)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });

/** DELETE …/images/template/{id}: every page. */
export const deleteAllPages = (templateId: string) =>
  apiRequest(`${base}/images/template/${encodeURIComponent(templateId)}`, {
    method: 'DELETE',
    schema: messageResponseSchema,
  });

/** GET …/mapping/image/{id}: a page's boxes. */
export const listBoxes = (imageId: string) =>
  apiRequest(`${base}/mapping/image/${encodeURIComponent(imageId)}`, {
    schema: z.array(templateMappingDtoSchema),
    quiet: true,
  });

/** PUT …/mappings/image/{id}: a page's boxes replaced at once (the editor's save). */
export const replaceBoxes = (imageId: string, mappings: TemplateBox[]) =>
  apiRequest(`${base}/mappings/image/${encodeURIComponent(imageId)}`, {
    method: 'PUT',
    body: { mappings },
    schema: z.array(templateMappingDtoSchema),
  });
