/**
 * TypeScript types of the schema format under schemas/, for the runtime (the menu layout, ConsoleTable,
 * Formily) that renders it. The format itself is described once, by schemas/meta/*.schema.json,
 * which src/schema/validate.ts checks every file against: keep these types in step with it.
 */
import type { ActionWhen } from './when';

export type { ActionWhen } from './when';

export type PageKind = 'table' | 'form' | 'detail';

/** Folder under schemas/ for each page kind. */
export const PAGE_KIND_DIRS: Record<PageKind, string> = {
  table: 'tables',
  form: 'forms',
  detail: 'details',
};

/** A route rendered by one schema file of the generic pages. */
export interface SchemaRoutePage {
  kind: PageKind;
  /** file name without .json under schemas/<kind>s/ */
  schema: string;
}

/** A schema file a custom page renders as part of itself (e.g. a table inside a tab). */
export type SchemaRef = SchemaRoutePage;

/**
 * A route rendered by a hand-written page component (src/runtime/pages/custom/registry.ts), for pages
 * that need more than one schema or data the generic pages can't show. `schemas` names the schema
 * files it renders so the validator knows they are in use.
 */
export interface CustomRoutePage {
  kind: 'custom';
  /** key in CUSTOM_PAGES */
  component: string;
  schemas?: SchemaRef[];
}

export type RoutePage = SchemaRoutePage | CustomRoutePage;
export type RoutePageKind = RoutePage['kind'];

export type UserType = 'admin' | 'operator';
export type NavStyle = 'inline' | 'horizontal' | 'none';

/** Layout groups of the spec; a top-level route names the one it renders in (children inherit it). */
export type LayoutGroup = 'basic' | 'menu' | 'mine';

/**
 * One route entry. The spec's keys are key, title, icon, path, hide, needServicePack, servicePackName,
 * userType, navStyle, href, childRoutes. Three more are kept because the console is schema-driven and
 * the spec's keys cannot express them:
 * - `page`: which schema (or custom component) renders the route — the spec's entries point at code;
 * - `public`: the route needs no sign-in (login, agreement, set-password);
 * - `layout`: which layout group renders it (spec: "Layout groups"; /main, /service, /account share
 *   the menu layout, /mine has its own, public pages the basic one). Only on top-level entries.
 */
export interface RouteNode {
  /** stable id (defaults to path); used as menu key */
  key?: string;
  /** absolute, starts with '/', may contain :params and one optional :param? (e.g. /x/apply/:id?) */
  path: string;
  /** menu/page title (Chinese UI text) */
  title: string;
  /** antd icon name, one of ICON_NAMES */
  icon?: string;
  /** not shown in menu */
  hide?: boolean;
  /** needs no login (login, agreement, set-password) */
  public?: boolean;
  needServicePack?: boolean;
  /** required when needServicePack is true (e.g. 'attendance') */
  servicePackName?: string;
  /** who may see it; absent = all */
  userType?: UserType[];
  /** 'none' = rendered without menu (sign-in pages) */
  navStyle?: NavStyle;
  /** external link (http/https) instead of a page */
  href?: string;
  /** layout group, top-level entries only */
  layout?: LayoutGroup;
  /** required for leaf routes without href */
  page?: RoutePage;
  childRoutes?: RouteNode[];
}

export interface RoutesFile {
  $schema?: string;
  brand: string;
  defaultPath: string;
  routes: RouteNode[];
  /** old path pattern -> new path pattern (params carried over by name) */
  redirects?: Record<string, string>;
}

export type ValueType =
  | 'text'
  | 'money'
  | 'date'
  | 'dateTime'
  | 'dateRange'
  | 'enum'
  | 'digit'
  | 'phone'
  | 'idCard'
  | 'boolean';


export type EnumStatus = 'Default' | 'Success' | 'Processing' | 'Error' | 'Warning';

export interface EnumOption {
  label: string;
  value: string;
  status?: EnumStatus;
}

export interface TableColumn {
  /** resolved from the entity field's label (entity-bound tables) */
  title: string;
  dataIndex: string;
  valueType?: ValueType;
  options?: EnumOption[];
  search?: boolean;
  hideInTable?: boolean;
  sorter?: boolean;
  copyable?: boolean;
  ellipsis?: boolean;
  width?: number;
  /** route path with :field placeholders e.g. '/order/detail/:id' */
  link?: string;
  fixed?: 'left' | 'right';
  /** search select options from this GET path ([{ value, … }]); see ColumnLayout.optionsApi */
  optionsApi?: string;
}

/**
 * Page schemas may reference an entity (schemas/entities/<name>.json): then columns, form fields and
 * detail fields name entity fields and add layout only; titles, value types, options, search, sort
 * and rules come from the entity. '*' stands for every entity field not listed (minus `omit`), so a
 * field added to the entity appears without editing the page. src/schema/resolve.ts turns these
 * files into the resolved shapes below (TableSchema, FormSchema, DetailSchema) for the runtime.
 */
export const REST_FIELDS = '*';

/** Layout-only keys an entity-bound column may carry. */
export interface ColumnLayout {
  field: string;
  width?: number;
  link?: string;
  copyable?: boolean;
  ellipsis?: boolean;
  hideInTable?: boolean;
  fixed?: 'left' | 'right';
  /**
   * Exact-search text field whose filter is a select of the values a GET path answers ([{ value, … }],
   * e.g. /api/plans); options and cells show the stored value.
   */
  optionsApi?: string;
}

export interface TableSchemaFile extends Omit<TableSchema, 'columns' | 'api' | 'rowKey'> {
  $schema?: string;
  entity?: string;
  api?: string;
  rowKey?: string;
  /** entity-bound: field names / ColumnLayout / '*'; without entity: full TableColumn objects */
  columns: Array<string | ColumnLayout | TableColumn>;
  /** entity fields left out of '*' */
  omit?: string[];
}

/** Form field component overrides (layout only). */
export type FormComponent = 'input' | 'textarea' | 'password' | 'select' | 'switch' | 'date';

export interface FormFieldLayout {
  field: string;
  placeholder?: string;
  component?: FormComponent;
  span?: number;
  hidden?: boolean;
  /** options loaded from a list endpoint (a select over remote rows) */
  optionsApi?: string;
  description?: string;
  /** renders the field (an array of ids) as a file upload */
  upload?: UploadSpec;
  /** Another field of the form this one must differ from (新密码 vs 原密码); the gateway has the same rule. */
  differsFrom?: string;
}

/** A form-only "repeat the value" input (not sent to the gateway), e.g. password confirmation. */
export interface ConfirmFieldLayout {
  confirm: string;
  label: string;
  placeholder?: string;
  description?: string;
}

export interface FormSchemaFile extends Omit<FormSchema, 'fields'> {
  $schema?: string;
  entity?: string;
  fields: Array<string | FormFieldLayout | ConfirmFieldLayout | FormField>;
  omit?: string[];
}

export interface DetailFieldLayout {
  field: string;
  span?: number;
}

export interface DetailSchemaFile extends Omit<DetailSchema, 'sections'> {
  $schema?: string;
  entity?: string;
  sections: Array<{ title: string; fields: Array<string | DetailFieldLayout | DetailField> }>;
  omit?: string[];
}

export interface ToolbarAction {
  label: string;
  to?: string;
  href?: string;
  /** id of a form schema opened in a dialog; the table reloads after a successful submit */
  form?: string;
  primary?: boolean;
  userType?: UserType[];
  /** Detail actions only: shown only when the record matches (src/schema/when.ts), e.g. { payStatus: 'unpaid' }. */
  when?: ActionWhen;
}

export interface RowAction {
  label: string;
  to?: string;
  /** e.g. 'DELETE /api/bank-accounts/:id' */
  api?: string;
  confirm?: string;
  userType?: UserType[];
  /** Shown only on rows that match (src/schema/when.ts), e.g. { payStatus: 'unpaid' } or { status: ['reported', 'reviewing'] }. */
  when?: ActionWhen;
}

export interface TableSchema {
  id: string;
  /** entity the table lists (entity-bound tables) */
  entity?: string;
  title: string;
  api: string;
  rowKey: string;
  columns: TableColumn[];
  toolbar?: ToolbarAction[];
  rowActions?: RowAction[];
  pageSize?: number;
  exportable?: boolean;
}

export type FieldType =
  | 'string'
  | 'password'
  | 'textarea'
  | 'number'
  | 'money'
  | 'date'
  | 'enum'
  | 'multiEnum'
  | 'boolean'
  | 'phone'
  | 'idCard'
  | 'rows'
  | 'smsCode'
  | 'email'
  /** only from an entity-bound form's `upload` layout (it needs its UploadSpec) */
  | 'upload';

/**
 * A file input (layout key `upload`): each chosen file is sent to `api` (multipart, field `file`;
 * the answer's `id` identifies it) and the field's value is the list of ids. `accept` names the
 * spec's upload type groups, `exclude` extensions of those groups that are still refused.
 */
export interface UploadSpec {
  api: string;
  accept: Array<'image' | 'pdf' | 'office'>;
  exclude?: string[];
  /** largest file in MB (checked in the browser before uploading; the gateway checks again) */
  maxSizeMb?: number;
}

export interface FormField {
  name: string;
  title: string;
  type: FieldType;
  required?: boolean;
  pattern?: string;
  patternMessage?: string;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  options?: EnumOption[];
  optionsApi?: string;
  placeholder?: string;
  description?: string;
  default?: unknown;
  /** for type 'rows': the columns of an editable/uploadable roster table (CSV import supported by runtime) */
  columns?: FormField[];
  /** the entity field this input edits: the single source of its rules (src/shared/entity/rules.ts) */
  rule?: import('../shared/entity/types').FieldSchema;
  span?: number;
  hidden?: boolean;
  /** form-only confirmation of another field (not sent) */
  confirmOf?: string;
  /** refused when equal to this other field (sameValueMessage) */
  differsFrom?: string;
  example?: unknown;
  /** for type 'upload' */
  upload?: UploadSpec;
  /** shown only while another input of the form has one of these values (hidden inputs are not sent) */
  visibleWhen?: { field: string; in: string[] };
}

export interface FormSchema {
  id: string;
  entity?: string;
  title: string;
  description?: string;
  submit: { api: string; method: 'POST' | 'PUT'; label?: string };
  /** A submission that costs money: its cost is asked here (form values + body) and confirmed before submitting. */
  quote?: { api: string; body?: Record<string, unknown> };
  fields: FormField[];
  successMessage?: string;
  successRedirect?: string;
}

export interface DetailField {
  label: string;
  dataIndex: string;
  valueType?: ValueType;
  options?: EnumOption[];
  span?: number;
}

export interface DetailSection {
  title: string;
  fields: DetailField[];
}

export interface DetailSchema {
  id: string;
  entity?: string;
  title: string;
  /** may contain :id; may be omitted when `content` is given */
  api?: string;
  sections: DetailSection[];
  /** static markdown-ish text for pages like the agreement; then api may be omitted */
  content?: string;
  actions?: ToolbarAction[];
}

/**
 * antd icon names src/runtime/icons.tsx imports, the same list as the `icon` enum of
 * schemas/meta/routes.schema.json (tests/unit/schema-meta.test.ts keeps them equal).
 */
export const ICON_NAMES = [
  'HomeOutlined', 'DashboardOutlined', 'SafetyCertificateOutlined', 'TeamOutlined', 'ShoppingCartOutlined',
  'FileTextOutlined', 'AccountBookOutlined', 'MedicineBoxOutlined', 'SettingOutlined', 'BankOutlined',
  'UserOutlined', 'SwapOutlined', 'LoginOutlined', 'ProfileOutlined', 'AuditOutlined',
  'DollarOutlined', 'UploadOutlined', 'CalendarOutlined', 'UnorderedListOutlined', 'LockOutlined',
  'FormOutlined', 'SolutionOutlined', 'IdcardOutlined', 'AlertOutlined', 'FileProtectOutlined',
  'RollbackOutlined', 'CustomerServiceOutlined', 'ReadOutlined', 'HistoryOutlined', 'WalletOutlined',
] as const;

export type IconName = (typeof ICON_NAMES)[number];

export interface SchemaIssue {
  /** relative file path like 'schemas/routes.json' */
  file: string;
  /** JSON path like $.routes[3].childRoutes[0].page.schema */
  path: string;
  reason: string;
}
