/**
 * Per-entity business rules that are not field rules (who may write, derived values, state
 * transitions, custom actions) live in hook modules under src/server/hooks/<entity>.ts and are
 * registered here. Field rules never go into hooks: they belong in the entity schema.
 */
import type { Db } from '../db.ts';
import type { EntitySchema, FieldError } from '../../shared/entity/types.ts';

export interface RequestUser {
  id: number;
  phone: string;
  family: string;
}

export interface RequestBusiness {
  businessId: string;
  businessName: string;
  chargeForm: 'prepaid' | 'postpaid';
  userType: 'admin' | 'operator';
  servicePacks: string[];
  balance: number;
}

export interface HookContext {
  entity: EntitySchema;
  user?: RequestUser;
  business: RequestBusiness;
}

export type Row = Record<string, unknown>;

/** A refusal with an HTTP status, shown to the user as is. */
export class EntityError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'EntityError';
  }
  get code(): number {
    return this.status * 100;
  }
}

export type ActionHandler = (ctx: HookContext, id: number, body: Row, tx: Db) => Promise<unknown>;

export interface EntityHooks {
  /** may change the (validated) input, e.g. derive values; throw EntityError to refuse */
  beforeCreate?(ctx: HookContext, input: Row, tx: Db): Promise<Row | void>;
  afterCreate?(ctx: HookContext, row: Row, tx: Db): Promise<void>;
  beforeUpdate?(ctx: HookContext, id: number, input: Row, tx: Db): Promise<Row | void>;
  afterUpdate?(ctx: HookContext, row: Row, tx: Db): Promise<void>;
  beforeDelete?(ctx: HookContext, id: number, tx: Db): Promise<void>;
  afterDelete?(ctx: HookContext, row: Row, tx: Db): Promise<void>;
  /** allowed state changes per enum field: { status: { applying: ['issued', 'rejected'] } } */
  transitions?: Record<string, Record<string, string[]>>;
  /** POST /api/<api>/:id/<name> */
  actions?: Record<string, ActionHandler>;
}

export interface HookRegistry {
  register(entity: string, hooks: EntityHooks): HookRegistry;
  get(entity: string): EntityHooks;
}

export function createHookRegistry(initial: Record<string, EntityHooks> = {}): HookRegistry {
  const map = new Map<string, EntityHooks>(Object.entries(initial));
  const reg: HookRegistry = {
    register(entity, hooks) {
      map.set(entity, { ...map.get(entity), ...hooks });
      return reg;
    },
    get: (entity) => map.get(entity) ?? {},
  };
  return reg;
}

/** Refuses a change of an enum field that its transitions table does not allow. */
export function checkTransition(hooks: EntityHooks, entity: EntitySchema, before: Row, input: Row): void {
  for (const [field, table] of Object.entries(hooks.transitions ?? {})) {
    const to = input[field];
    const from = before[field];
    if (to === undefined || to === from) continue;
    if (!(table[String(from)] ?? []).includes(String(to))) {
      const f = entity.fields[field];
      const label = (v: unknown) => f?.options?.find((o) => o.value === v)?.label ?? String(v);
      throw new EntityError(400, `${f?.label ?? field}不能从“${label(from)}”变为“${label(to)}”`, [
        { field, message: `${f?.label ?? field}不能从“${label(from)}”变为“${label(to)}”` },
      ]);
    }
  }
}
