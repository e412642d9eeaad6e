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
}

export interface FormSchema {
  id: string;
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
