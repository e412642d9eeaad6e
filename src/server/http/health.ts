import type { FastifyInstance } from 'fastify';

/** Liveness (/healthz) and readiness (/readyz: database answers and not shutting down). */
export default async function healthRoutes(app: FastifyInstance) {
  const schema = { hide: true };
  app.get('/healthz', { schema }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', { schema }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (app.deps.shuttingDown) return reply.status(503).send({ status: 'shutting-down' });
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database timeout')), 2000);
      });
      await Promise.race([app.deps.db.query('SELECT 1'), timeout]).finally(() => clearTimeout(timer));
      return { status: 'ok' };
    } catch (err) {
      app.log.warn({ err }, 'readiness check failed');
      return reply.status(503).send({ status: 'database-unavailable' });
    }
  });
}
