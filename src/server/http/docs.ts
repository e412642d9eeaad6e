import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * OpenAPI document generated from the route schemas: UI at /api/docs, JSON at /api/docs/json.
 * Registered before the routes so every route is collected.
 */
export const docsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
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
