import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeAlertParamsSchema,
  changeAlertSchema,
  createWebhookEndpointSchema,
  createdWebhookEndpointSchema,
  messageResponseSchema,
  updateWebhookEndpointSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointParamsSchema,
  webhookEndpointSchema,
  webhookOwnerParamsSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { WebhookService } from './webhooks.service.js';

const errors = errorResponses(400, 401, 403, 404);
const tags = ['webhooks'];

/**
 * Webhooks of an extractor or a scheduler (issue 26, docs/api.md "Webhooks"): endpoints under
 * /webhooks/{extractor|scheduler}/:ownerId, each endpoint's deliveries, redelivery and test events.
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ webhooks: WebhookService }> = async (
  app,
  { webhooks },
) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/webhooks/change-alert/:extractorId', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'Whether the extractor e-mails its owner when its data changes.',
      params: changeAlertParamsSchema,
      response: { 200: changeAlertSchema, ...errors },
    },
    handler: (request) => webhooks.changeAlert(request.user.id, request.params.extractorId),
  });

  app.put('/webhooks/change-alert/:extractorId', {
    schema: {
      tags,
      security: bearerSecurity,
      params: changeAlertParamsSchema,
      body: changeAlertSchema,
      response: { 200: changeAlertSchema, ...errors },
    },
    handler: (request) => webhooks.setChangeAlert(request.user.id, request.params.extractorId, request.body),
  });

  app.get('/webhooks/:ownerKind/:ownerId', {
    schema: {
      tags,
      security: bearerSecurity,
      params: webhookOwnerParamsSchema,
      response: { 200: webhookEndpointListSchema, ...errors },
    },
    handler: (request) => webhooks.list(request.user.id, request.params),
  });

  app.post('/webhooks/:ownerKind/:ownerId', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'Adds an endpoint. The answer carries its signing secret, shown this once.',
      params: webhookOwnerParamsSchema,
      body: createWebhookEndpointSchema,
      response: { 201: createdWebhookEndpointSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await webhooks.create(request.user.id, request.params, request.body)),
  });

  app.put('/webhooks/endpoints/:endpointId', {
    schema: {
      tags,
      security: bearerSecurity,
      params: webhookEndpointParamsSchema,
      body: updateWebhookEndpointSchema,
      response: { 200: webhookEndpointSchema, ...errors },
    },
    handler: (request) => webhooks.update(request.user.id, request.params.endpointId, request.body),
  });

  app.delete('/webhooks/endpoints/:endpointId', {
    schema: {
      tags,
      security: bearerSecurity,
      params: webhookEndpointParamsSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: (request) => webhooks.remove(request.user.id, request.params.endpointId),
  });

  app.get('/webhooks/endpoints/:endpointId/deliveries', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'The endpoint’s deliveries, newest first, a page at a time.',
      params: webhookEndpointParamsSchema,
      querystring: webhookDeliveriesQuerySchema,
      response: { 200: webhookDeliveryListSchema, ...errors },
    },
    handler: (request) => webhooks.deliveries(request.user.id, request.params.endpointId, request.query.page),
  });

  app.post('/webhooks/endpoints/:endpointId/test', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'Queues a TEST event to the endpoint.',
      params: webhookEndpointParamsSchema,
      response: { 202: webhookDeliverySchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await webhooks.sendTest(request.user.id, request.params.endpointId)),
  });

  app.post('/webhooks/deliveries/:deliveryId/redeliver', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'A new attempt chain for the delivery, with the same webhook-id and payload.',
      params: webhookDeliveryParamsSchema,
      response: { 202: webhookDeliverySchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await webhooks.redeliver(request.user.id, request.params.deliveryId)),
  });
};
