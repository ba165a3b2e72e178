import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  RECOGNITION_PDF_MAX_BYTES,
  createTemplateRequestSchema,
  idParamSchema,
  messageResponseSchema,
  renameTemplateRequestSchema,
  replaceMappingsRequestSchema,
  saveMappingRequestSchema,
  templateDtoSchema,
  templateImageDtoSchema,
  templateMappingDtoSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import { readOnePdf } from '../../lib/multipart-file.js';
import type { TemplateService } from './statement-templates.service.js';

const errors = errorResponses(400, 401, 404, 409, 413, 503);
const tags = ['statement templates'];
const base = '/statement-recognition-template';

/** The /statement-recognition-template calls (data spec §7), and three beyond it (marked). */
export const templateRoutes: FastifyPluginAsyncZod<{ templates: TemplateService }> = async (
  app,
  { templates },
) => {
  await app.register(multipart, { limits: { fileSize: RECOGNITION_PDF_MAX_BYTES, files: 1 } });
  const authenticated = { onRequest: app.authenticate };

  app.get(`${base}/user`, {
    ...authenticated,
    schema: {
      tags,
      summary: "The caller's templates",
      security: bearerSecurity,
      response: { 200: z.array(templateDtoSchema), ...errors },
    },
    handler: (request) => templates.list(request.user.id),
  });

  app.put(`${base}/`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Create a template (409 on a used name)',
      security: bearerSecurity,
      body: createTemplateRequestSchema,
      response: { 200: templateDtoSchema, ...errors },
    },
    handler: (request) => templates.create(request.user.id, request.body.templateName),
  });

  app.post(`${base}/`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Rename a template',
      security: bearerSecurity,
      body: renameTemplateRequestSchema,
      response: { 200: templateDtoSchema, ...errors },
    },
    handler: (request) => templates.rename(request.user.id, request.body.id, request.body.templateName),
  });

  app.delete(`${base}/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Delete a template with its pages and boxes (results already read stay)',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await templates.delete(request.user.id, request.params.id);
      return { message: MESSAGES['template.deleted'] };
    },
  });

  app.post(`${base}/copy/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Copy a template: new ids, the same page images and boxes, named "<name> (copy)"',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: templateDtoSchema, ...errors },
    },
    handler: (request) => templates.copy(request.user.id, request.params.id),
  });

  app.get(`${base}/images/template/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: "A template's page images, each with a signed address an <img> loads for a few minutes",
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: z.array(templateImageDtoSchema), ...errors },
    },
    handler: (request) => templates.images(request.user.id, request.params.id),
  });

  app.delete(`${base}/images/template/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Beyond the spec: delete all pages of a template (with their boxes) at once',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await templates.deleteImages(request.user.id, request.params.id);
      return { message: MESSAGES['template.images.deleted'] };
    },
  });

  app.post(`${base}/upload-pdf/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary:
        "Upload the template's sample PDF (multipart field `file`); its pages are drawn in the background",
      security: bearerSecurity,
      consumes: ['multipart/form-data'],
      params: idParamSchema,
      response: { 202: messageResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const file = await readOnePdf(request, MESSAGES['template.image.one.file']);
      return reply.status(202).send(await templates.uploadPdf(request.user.id, request.params.id, file));
    },
  });

  app.delete(`${base}/image/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Delete one page image (with its boxes)',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await templates.deleteImage(request.user.id, request.params.id);
      return { message: MESSAGES['template.image.deleted'] };
    },
  });

  app.get(`${base}/image/uuid/:imageUuid`, {
    schema: {
      tags,
      summary: 'A page image (JPEG) by the signed address its list gave (no session: <img> tags)',
      params: z.object({ imageUuid: z.string().uuid() }),
      querystring: z.object({ expires: z.coerce.number().int(), signature: z.string().max(100) }),
    },
    handler: async (request, reply) => {
      const file = await templates.image(
        request.params.imageUuid,
        request.query.expires,
        request.query.signature,
      );
      return reply
        .type('image/jpeg')
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    },
  });

  app.get(`${base}/mapping/image/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'The boxes of a page image',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: z.array(templateMappingDtoSchema), ...errors },
    },
    handler: (request) => templates.mappings(request.user.id, request.params.id),
  });

  app.put(`${base}/mapping`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Add one box to a page image (type TEXT and label EMPTY by default)',
      security: bearerSecurity,
      body: saveMappingRequestSchema,
      response: { 200: templateMappingDtoSchema, ...errors },
    },
    handler: (request) => {
      const { imageId, ...box } = request.body;
      return templates.addMapping(request.user.id, imageId, box);
    },
  });

  app.put(`${base}/mappings/image/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: "Beyond the spec: replace a page's boxes in one transaction (the editor's save)",
      security: bearerSecurity,
      params: idParamSchema,
      body: replaceMappingsRequestSchema,
      response: { 200: z.array(templateMappingDtoSchema), ...errors },
    },
    handler: (request) =>
      templates.replaceMappings(request.user.id, request.params.id, request.body.mappings),
  });

  app.delete(`${base}/mapping/:id`, {
    ...authenticated,
    schema: {
      tags,
      summary: 'Delete one box',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await templates.deleteMapping(request.user.id, request.params.id);
      return { message: MESSAGES['template.mapping.deleted'] };
    },
  });
};
