import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { withResponses } from './openapi-responses.ts';

/**
 * OpenAPI document generated from the route schemas: UI at /api/docs, JSON at /api/docs/json.
 * Registered before the routes so every route is collected. Response bodies are added to the document
 * only (withResponses), never used to serialize.
 */
export const docsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    transform: withResponses,
    openapi: {
      info: { title: '企业控制台网关 API', version: '1.0.0', description: '响应统一为 {code, message, data?, errors?}' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          company: { type: 'apiKey', in: 'header', name: 'X-Company-Id' },
        },
      },
      security: [{ bearer: [], company: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });
});
