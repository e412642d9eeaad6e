/**
 * Input checks of code write routes from the entity schemas: the route's body schema is
 * toJsonSchema(entity), compiled by the entity Ajv (formats and keywords delegate to the shared rules)
 * and its errors are worded by the shared messages, so the gateway refuses exactly what the browser's
 * form refuses, with the same Chinese text. No field rule is written here.
 */
import type { FastifyReply, FastifyRequest, FastifySchema, RouteShorthandOptions } from 'fastify';
import { createEntityAjv, mapAjvErrors } from '../../shared/entity/ajv.ts';
import { toJsonSchema, type JsonSchema } from '../../shared/entity/json-schema.ts';
import { inputFields, normalizePayload } from '../../shared/entity/rules.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { localParts } from '../domain/util.ts';
import { yieldToLoop } from '../util.ts';
import { badInput, errorHandler, INVALID_INPUT } from '../http/errors.ts';
import { slicedBodyValidator } from './sliced-validation.ts';

/** Date bounds such as `maxDate: "today"` use the business calendar (Asia/Shanghai), not UTC. */
const ajv = createEntityAjv({ today: () => localParts(new Date()).date });

export const ROWS_INVALID = '名单中有数据不正确，本批次未提交，请修改后重新提交';

export interface EntityInputOptions {
  /** Runs before the body is checked (e.g. "admins only"), so a refused caller learns nothing about the rules. */
  guard?: (req: FastifyRequest) => void;
  /** Extra route schema keys (tags, summary). */
  doc?: Record<string, unknown>;
}

type Validation = Parameters<typeof mapAjvErrors>[1];

/** Route options that check the body against an entity's input fields (create mode). */
export function entityInput(entity: EntitySchema, opts: EntityInputOptions = {}): RouteShorthandOptions {
  const fields = inputFields(entity);
  return {
    schema: { ...opts.doc, body: toJsonSchema(entity, { mode: 'create' }) } as FastifySchema,
    // A body with a long array (a roster's rows) is checked in slices of the event loop (sliced-validation.ts).
    // Fastify awaits a validator's promise (its types only admit a branded one).
    validatorCompiler: (({ schema }: { schema: unknown }) => slicedBodyValidator(ajv, schema as JsonSchema)) as unknown as NonNullable<RouteShorthandOptions['validatorCompiler']>,
    // Trimmed strings; null, blank strings and empty lists mean "not given" (the browser does the same).
    preValidation: async (req: FastifyRequest) => {
      opts.guard?.(req);
      if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) {
        req.body = normalizePayload(req.body as Record<string, unknown>);
        // Schema validation runs in its own slice of the event loop (see yieldToLoop).
        await yieldToLoop();
      }
    },
    errorHandler(err: Error & { validation?: Validation; validationContext?: string }, req: FastifyRequest, reply: FastifyReply) {
      if (err.validation && err.validationContext === 'body') {
        const errors = mapAjvErrors(fields, err.validation);
        const rows = errors.some((e) => /^\w+\[\d+\]/.test(e.field));
        return errorHandler(badInput(rows ? ROWS_INVALID : INVALID_INPUT, errors), req, reply);
      }
      return errorHandler(err, req, reply);
    },
  };
}
