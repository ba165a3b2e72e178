import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  messageResponseSchema,
  renameSchedulerRequestSchema,
  saveSchedulerRequestSchema,
  schedulerDtoSchema,
  schedulerFiringDtoSchema,
  schedulerIdParamsSchema,
  schedulerTimeZonesResponseSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { SchedulerService } from './schedulers.service.js';

const errors = errorResponses(400, 401, 404, 409, 503);
const tags = ['scheduler'];

/** The /extractor/scheduler calls (data spec §7), and the firings of one (beyond the spec). */
export const schedulerRoutes: FastifyPluginAsyncZod<{ schedulers: SchedulerService }> = async (
  app,
  { schedulers },
) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/extractor/scheduler/', {
    schema: {
      tags,
      summary: "The caller's schedulers for the dashboard panel (next run, last run's state)",
      security: bearerSecurity,
      response: { 200: z.array(schedulerDtoSchema), ...errors },
    },
    handler: (request) => schedulers.list(request.user.id),
  });

  app.get('/extractor/scheduler/timezone', {
    schema: {
      tags,
      summary: "The IANA time zones a scheduler can count in, and the server's",
      security: bearerSecurity,
      response: { 200: schedulerTimeZonesResponseSchema, ...errors },
    },
    handler: () => schedulers.timeZones(),
  });

  app.put('/extractor/scheduler/', {
    schema: {
      tags,
      summary: 'Create (no id) or replace a scheduler; 409 "Scheduler already exists" on a used name',
      security: bearerSecurity,
      body: saveSchedulerRequestSchema,
      response: { 200: schedulerDtoSchema.extend({ message: z.string() }), ...errors },
    },
    handler: async (request) => ({
      ...(await schedulers.save(request.user.id, request.body)),
      message: MESSAGES['scheduler.saved'],
    }),
  });

  app.get('/extractor/scheduler/:id', {
    schema: {
      tags,
      summary: 'One scheduler (the wizard opens it to edit)',
      security: bearerSecurity,
      params: schedulerIdParamsSchema,
      response: { 200: schedulerDtoSchema, ...errors },
    },
    handler: (request) => schedulers.get(request.user.id, request.params.id),
  });

  app.get('/extractor/scheduler/:id/firings', {
    schema: {
      tags,
      summary: 'What its latest firings did: the runs they started and the extractors they skipped',
      security: bearerSecurity,
      params: schedulerIdParamsSchema,
      response: { 200: z.array(schedulerFiringDtoSchema), ...errors },
    },
    handler: (request) => schedulers.firings(request.user.id, request.params.id),
  });

  app.post('/extractor/scheduler/rename', {
    schema: {
      tags,
      summary: 'Rename (name and description)',
      security: bearerSecurity,
      body: renameSchedulerRequestSchema,
      response: { 200: schedulerDtoSchema.extend({ message: z.string() }), ...errors },
    },
    handler: async (request) => ({
      ...(await schedulers.rename(request.user.id, request.body)),
      message: MESSAGES['scheduler.renamed'],
    }),
  });

  app.delete('/extractor/scheduler/:id', {
    schema: {
      tags,
      summary: 'Delete a scheduler and its job scheduler (its runs stay)',
      security: bearerSecurity,
      params: schedulerIdParamsSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await schedulers.delete(request.user.id, request.params.id);
      return { message: MESSAGES['scheduler.deleted'] };
    },
  });
};
