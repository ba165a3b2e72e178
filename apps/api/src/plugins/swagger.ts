import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION, PUBLIC_API_TAG } from '@pagewright/shared';

/** OpenAPI generated from the shared zod contracts, browsable at /api/docs. */
export const swaggerPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Pagewright API', version: APP_VERSION },
      tags: [
        {
          name: PUBLIC_API_TAG,
          description:
            "The public, versioned API (issue 26), called with an API key made in Settings: `Authorization: Bearer pw_…`. Every item is the key owner's; errors are `{ message, code, field? }`. See docs/api.md.",
        },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // The public API (/api/v1): an API key from Settings, `Authorization: Bearer pw_…`.
          apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'pw_ API key' },
          // The token of an e-mailed message link (the message viewer without a session).
          messageToken: { type: 'apiKey', in: 'header', name: 'x-message-token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
