/**
 * Types for the schema format under schemas/. The runtime (ProLayout, ProTable, Formily)
 * renders these; src/schema/validator.ts checks them. Keep this file the single source of
 * truth for the format (and keep validator.ts in sync with it).
 */

export type PageKind = 'table' | 'form' | 'detail';

/** Folder under schemas/ for each page kind. */
export const PAGE_KIND_DIRS: Record<PageKind, string> = {
  table: 'tables',
  form: 'forms',
  detail: 'details',
};

export interface RoutePage {
  kind: PageKind;
  /** file name without .json under schemas/<kind>s/ */
  schema: string;
}

export type UserType = 'admin' | 'operator';
export type NavStyle = 'inline' | 'horizontal' | 'none';

export interface RouteNode {
  /** absolute, starts with '/', may contain :params (e.g. /order/detail/:id) */
  path: string;
  /** menu/page title (Chinese UI text) */
  title: string;
  /** antd icon name, one of ICON_NAMES */
  icon?: string;
  /** not shown in menu */
  hidden?: boolean;
  /** needs no login (login, agreement, set-password) */
  public?: boolean;
  needServicePack?: boolean;
  /** required when needServicePack is true (e.g. 'attendance') */
  servicePackName?: string;
  /** who may see it; absent = all */
  userType?: UserType[];
  /** 'none' = rendered without the layout (login pages) */
  navStyle?: NavStyle;
  /** external link (http/https) instead of a page */
  href?: string;
  /** required for leaf routes without href */
  page?: RoutePage;
  childRoutes?: RouteNode[];
}

export interface RoutesFile {
  brand: string;
  defaultPath: string;
  routes: RouteNode[];
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

export const VALUE_TYPES: readonly ValueType[] = [
  'text',
  'money',
  'date',
  'dateTime',
  'dateRange',
  'enum',
  'digit',
  'phone',
  'idCard',
  'boolean',
];

export type EnumStatus = 'Default' | 'Success' | 'Processing' | 'Error' | 'Warning';
export const ENUM_STATUSES: readonly EnumStatus[] = ['Default', 'Success', 'Processing', 'Error', 'Warning'];

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
}
export const COLUMN_LAYOUT_KEYS = ['field', 'width', 'link', 'copyable', 'ellipsis', 'hideInTable', 'fixed'] as const;

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
export const FORM_COMPONENTS: readonly FormComponent[] = ['input', 'textarea', 'password', 'select', 'switch', 'date'];

export interface FormFieldLayout {
  field: string;
  placeholder?: string;
  component?: FormComponent;
  span?: number;
  hidden?: boolean;
  /** options loaded from a list endpoint (a select over remote rows) */
  optionsApi?: string;
  description?: string;
}
export const FORM_LAYOUT_KEYS = ['field', 'placeholder', 'component', 'span', 'hidden', 'optionsApi', 'description'] as const;

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
}

export interface RowAction {
  label: string;
  to?: string;
  /** e.g. 'DELETE /api/bank-accounts/:id' */
  api?: string;
  confirm?: string;
  userType?: UserType[];
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
  | 'email';

export const FIELD_TYPES: readonly FieldType[] = [
  'string',
  'password',
  'textarea',
  'number',
  'money',
  'date',
  'enum',
  'multiEnum',
  'boolean',
  'phone',
  'idCard',
  'rows',
  'smsCode',
  'email',
];

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
  example?: unknown;
}

export interface FormSchema {
  id: string;
  entity?: string;
  title: string;
  description?: string;
  submit: { api: string; method: 'POST' | 'PUT'; label?: string };
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

/** antd icon names allowed in routes.json (all exist in @ant-design/icons). */
export const ICON_NAMES = [
  'HomeOutlined',
  'DashboardOutlined',
  'SafetyCertificateOutlined',
  'TeamOutlined',
  'ShoppingCartOutlined',
  'FileTextOutlined',
  'AccountBookOutlined',
  'MedicineBoxOutlined',
  'SettingOutlined',
  'BankOutlined',
  'UserOutlined',
  'SwapOutlined',
  'LoginOutlined',
  'ProfileOutlined',
  'AuditOutlined',
  'DollarOutlined',
  'UploadOutlined',
  'CalendarOutlined',
  'UnorderedListOutlined',
  'LockOutlined',
  'FormOutlined',
  'SolutionOutlined',
  'IdcardOutlined',
  'AlertOutlined',
  'FileProtectOutlined',
  'RollbackOutlined',
] as const;

export type IconName = (typeof ICON_NAMES)[number];

/** Exact number of leaf routes (routes with a page or href) routes.json must have. */
export const EXPECTED_LEAF_ROUTES = 22;

export interface SchemaIssue {
  /** relative file path like 'schemas/routes.json' */
  file: string;
  /** JSON path like $.routes[3].childRoutes[0].page.schema */
  path: string;
  reason: string;
}
