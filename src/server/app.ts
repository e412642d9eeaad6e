// The gateway now lives in http/ (Fastify) and routes/; this module keeps the old import path.
export { BODY_LIMIT, createApp, normalizeBasePath, type AppOptions } from './http/app.ts';
export { HttpError, type FieldError } from './http/errors.ts';
