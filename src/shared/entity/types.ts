/**
 * The entity schema format (schemas/entities/<name>.json). One file per business entity; the
 * gateway derives tables, queries and input checks from it, the browser derives columns, form
 * inputs and validators. See docs/entity-schema.md.
 */
import type { CoverPeriodRule } from '../cover-status.ts';
import type { InsurableAgeRule } from '../insurable-age.ts';

export type EntityFieldType =
  | 'string'
  | 'text'
  | 'integer'
  | 'money'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'phone'
  | 'idCard'
  | 'email'
  | 'taxNo'
  | 'bankAccount'
  | 'password'
  | 'smsCode'
  | 'array'
  | 'ref';

export const ENTITY_FIELD_TYPES: readonly EntityFieldType[] = [
  'string',
  'text',
  'integer',
  'money',
  'boolean',
  'date',
  'datetime',
  'enum',
  'phone',
  'idCard',
  'email',
  'taxNo',
  'bankAccount',
  'password',
  'smsCode',
  'array',
  'ref',
];

/** Field types whose value is a string in JSON. */
export const STRING_TYPES: readonly EntityFieldType[] = [
  'string',
  'text',
  'date',
  'datetime',
  'enum',
  'phone',
  'idCard',
  'email',
  'taxNo',
  'bankAccount',
  'password',
  'smsCode',
];

export type OptionStatus = 'Default' | 'Success' | 'Processing' | 'Error' | 'Warning';

export interface FieldOption {
  value: string;
  label: string;
  status?: OptionStatus;
}

export type SearchMode = false | 'exact' | 'contains' | 'range';
export type MaskKind = 'idCard' | 'phone' | 'bankAccount';

/** Rule names, in the order they are checked (the first failing rule gives the message). */
export const RULE_ORDER = [
  'required',
  'type',
  'minLength',
  'maxLength',
  'chars',
  'format',
  'pattern',
  'enum',
  'min',
  'max',
  'precision',
  'minDate',
  'maxDate',
  'minItems',
  'maxItems',
  'unique',
] as const;
export type RuleName = (typeof RULE_ORDER)[number];

/**
 * A field computed at read time from other fields and the business's today: the list, detail, filters,
 * totals and exports compute it (src/server/entity/query.ts). The rules live in src/shared/:
 * `coverPeriod` (src/shared/cover-status.ts) derives 待生效 / 在保 / 已过期 from a cover period's dates and
 * an event field, with no column of its own; `insurableAge` (src/shared/insurable-age.ts) shows a stored
 * automatic-insurance status with 1 / 3 as the person's age on today makes them.
 */
export type DerivedRule = CoverPeriodRule | InsurableAgeRule;

/** Items of an array field: a scalar type name, inline object fields, or an entity's input fields. */
export type ArrayItems = EntityFieldType | { fields: Record<string, FieldSchema> } | { entity: string; omit?: string[] };

export interface FieldSchema {
  type: EntityFieldType;
  label: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  pattern?: string;
  patternMessage?: string;
  minItems?: number;
  maxItems?: number;
  /** date bounds: YYYY-MM-DD, "today", "today+30", "today-365" */
  minDate?: string;
  maxDate?: string;
  options?: FieldOption[];
  items?: ArrayItems;
  /** for type ref: the referenced entity name */
  entity?: string;
  /** true = unique per business (stored rows) or within the array (array item fields) */
  unique?: boolean;
  mask?: MaskKind;
  readOnly?: boolean;
  /** a literal, or "now" (datetime/date), or "serial:PREFIX" (server-generated number) */
  default?: unknown;
  column?: string;
  search?: SearchMode;
  sort?: boolean;
  messages?: Partial<Record<RuleName, string>>;
  description?: string;
  example?: unknown;
  /** Computed at read time (DerivedRule); such a field is readOnly. */
  derived?: DerivedRule;
}

export interface EntityOperations {
  list?: boolean;
  read?: boolean;
  create?: boolean;
  update?: boolean;
  delete?: boolean;
}

export interface EntitySchema {
  $schema?: string;
  name: string;
  label: string;
  /** false = input-only payload (not stored, no table, no REST collection) */
  storage?: boolean;
  table?: string;
  api?: string;
  /**
   * business: every row belongs to one business (business_id; lists and details are the business's own).
   * platform: data shared by every business (no business_id, no REST collection), e.g. insurance plans.
   */
  scope?: 'business' | 'platform';
  /**
   * The list's order when none is asked for. `dayCounts` (a NOT NULL datetime field only) keeps per-day
   * row counts of the field so deep pages in its order skip whole days (src/server/entity/day-counts.ts).
   */
  defaultSort?: { field: string; order: 'ascend' | 'descend'; dayCounts?: boolean };
  operations?: EntityOperations;
  /**
   * Another entity's input fields copied in (without readOnly/unique), before this entity's own: e.g. a
   * form row that keeps a copy of every person field. A field declared here too keeps its own definition.
   */
  fieldsFrom?: { entity: string; omit?: string[] };
  fields: Record<string, FieldSchema>;
  /**
   * Counts kept exact by triggers in the same transaction as the rows (src/server/entity/counts.ts):
   * rows per business and value of the `by` fields (date and datetime fields per day), with the sums of
   * the `sum` fields. A list filtered on `by` fields only takes its exact total from them, and the
   * workbench its numbers.
   */
  counts?: EntityCounts[];
  description?: string;
}

export interface EntityCounts {
  by: string[];
  sum?: string[];
  /** Dates and datetimes of `by` per day (default) or per month: charts by month read 12 rows a year, not 365. */
  per?: 'day' | 'month';
}

export interface FieldError {
  field: string;
  message: string;
}

export const isStored = (e: EntitySchema): boolean => e.storage !== false;

/** Whether a field has a column: every field but those derived from others (a coverPeriod status). */
export const hasColumn = (f: FieldSchema): boolean => !f.derived || f.derived.rule === 'insurableAge';

/** The fields that have a column. */
export const storedFields = (e: EntitySchema): Array<[string, FieldSchema]> => Object.entries(e.fields).filter(([, f]) => hasColumn(f));
