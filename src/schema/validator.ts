/**
 * Hand-written validator for the schema files under schemas/ (no dependencies, runs in the
 * browser and in node). Reports every problem as { file, path, reason } instead of throwing.
 */
import {
  ENUM_STATUSES,
  EXPECTED_LEAF_ROUTES,
  FIELD_TYPES,
  ICON_NAMES,
  LAYOUT_GROUPS,
  PAGE_KIND_DIRS,
  SPEC_SECTION_ROUTES,
  VALUE_TYPES,
  type PageKind,
  type RouteNode,
  type SchemaIssue,
} from './types';
import { templateTargetsRoute } from './routes';
import { buildEntityRegistry, entityNameOf, type EntityRegistry } from '../shared/entity/registry';
import { quoteCheck, validateEntityDetail, validateEntityFile, validateEntityForm, validateEntityTable, type PageDeps } from './validate-entity';

export type { SchemaIssue } from './types';

export const ROUTES_FILE = 'schemas/routes.json';

type Json = unknown;
type Check = (value: Json, path: string) => void;
interface KeySpec {
  required?: boolean;
  check: Check;
}

const USER_TYPES = ['admin', 'operator'] as const;
const NAV_STYLES = ['inline', 'horizontal', 'none'] as const;
const PAGE_KINDS = Object.keys(PAGE_KIND_DIRS) as PageKind[];
const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function isPlainObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Levenshtein distance, used to suggest the intended key for a typo. */
function distance(a: string, b: string): number {
  const d: number[] = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length];
}

function keyPath(base: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** Validator for one file; collects issues. */
export class FileChecker {
  constructor(
    readonly file: string,
    readonly issues: SchemaIssue[],
  ) {}

  add(path: string, reason: string): void {
    this.issues.push({ file: this.file, path, reason });
  }

  object(v: Json, path: string, spec: Record<string, KeySpec>): v is Record<string, Json> {
    if (!isPlainObject(v)) {
      this.add(path, `must be an object, got ${describe(v)}`);
      return false;
    }
    const allowed = Object.keys(spec);
    for (const key of Object.keys(v)) {
      if (!(key in spec)) {
        const near = allowed
          .map((k) => [k, distance(k.toLowerCase(), key.toLowerCase())] as const)
          .filter(([, dist]) => dist <= 2)
          .sort((a, b) => a[1] - b[1])[0];
        this.add(
          keyPath(path, key),
          `unknown key "${key}"${near ? ` (did you mean "${near[0]}"?)` : ''}; allowed: ${allowed.join(', ')}`,
        );
      }
    }
    for (const [key, ks] of Object.entries(spec)) {
      if (v[key] === undefined) {
        if (ks.required) this.add(keyPath(path, key), `missing required key "${key}"`);
        continue;
      }
      ks.check(v[key], keyPath(path, key));
    }
    return true;
  }

  // ---- primitive checks (bound so they can be passed around) ----
  str = (v: Json, path: string): void => {
    if (typeof v !== 'string') this.add(path, `must be a string, got ${describe(v)}`);
    else if (v.trim() === '') this.add(path, 'must be a non-empty string');
  };

  bool = (v: Json, path: string): void => {
    if (typeof v !== 'boolean') this.add(path, `must be a boolean, got ${describe(v)}`);
  };

  num = (v: Json, path: string): void => {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.add(path, `must be a finite number, got ${describe(v)}`);
  };

  posInt = (v: Json, path: string): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
      this.add(path, `must be a positive integer, got ${JSON.stringify(v)}`);
  };

  nonNegInt = (v: Json, path: string): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      this.add(path, `must be a non-negative integer, got ${JSON.stringify(v)}`);
  };

  any = (): void => {};

  oneOf =
    (allowed: readonly string[], what: string): Check =>
    (v, path) => {
      if (typeof v !== 'string' || !allowed.includes(v))
        this.add(path, `invalid ${what} ${JSON.stringify(v)}; allowed: ${allowed.join(', ')}`);
    };

  arrayOf =
    (item: Check, opts: { nonEmpty?: boolean } = {}): Check =>
    (v, path) => {
      if (!Array.isArray(v)) {
        this.add(path, `must be an array, got ${describe(v)}`);
        return;
      }
      if (opts.nonEmpty && v.length === 0) this.add(path, 'must be a non-empty array');
      v.forEach((x, i) => item(x, `${path}[${i}]`));
    };

  userTypes: Check = (v, path) => {
    this.arrayOf(this.oneOf(USER_TYPES, 'userType'), { nonEmpty: true })(v, path);
    if (Array.isArray(v) && new Set(v).size !== v.length) this.add(path, 'duplicate userType values');
  };

  /** An /api/... endpoint (GET implied). */
  apiPath: Check = (v, path) => {
    this.str(v, path);
    if (typeof v === 'string' && v.trim() && !v.startsWith('/api/'))
      this.add(path, `api must start with "/api/", got ${JSON.stringify(v)}`);
  };

  /** 'METHOD /api/...' as used by row actions. */
  methodApi: Check = (v, path) => {
    this.str(v, path);
    if (typeof v !== 'string' || !v.trim()) return;
    const m = /^([A-Z]+) (\/api\/\S*)$/.exec(v);
    if (!m || !API_METHODS.includes(m[1]))
      this.add(path, `api must look like "DELETE /api/resource/:id" (method one of ${API_METHODS.join(', ')})`);
  };

  httpUrl: Check = (v, path) => {
    this.str(v, path);
    if (typeof v === 'string' && v.trim() && !/^https?:\/\/\S+$/.test(v))
      this.add(path, `href must be an http(s) URL, got ${JSON.stringify(v)}`);
  };

  regex: Check = (v, path) => {
    this.str(v, path);
    if (typeof v !== 'string') return;
    try {
      new RegExp(v);
    } catch (e) {
      this.add(path, `pattern is not a valid RegExp: ${(e as Error).message}`);
    }
  };

  enumOptions: Check = (v, path) => {
    this.arrayOf(
      (o, p) =>
        this.object(o, p, {
          label: { required: true, check: this.str },
          value: { required: true, check: this.str },
          status: { check: this.oneOf(ENUM_STATUSES, 'status') },
        }),
      { nonEmpty: true },
    )(v, path);
    if (Array.isArray(v)) {
      const seen = new Set<unknown>();
      v.forEach((o, i) => {
        if (!isPlainObject(o) || o.value === undefined) return;
        if (seen.has(o.value)) this.add(`${path}[${i}].value`, `duplicate option value ${JSON.stringify(o.value)}`);
        seen.add(o.value);
      });
    }
  };

  /** options required for enum value types, forbidden otherwise. */
  enumConsistency(obj: Record<string, Json>, path: string, typeKey: string, enumTypes: string[], allowApi = false) {
    const t = obj[typeKey];
    const isEnum = typeof t === 'string' && enumTypes.includes(t);
    if (isEnum && obj.options === undefined && !(allowApi && obj.optionsApi !== undefined))
      this.add(`${path}.options`, `${typeKey} "${t}" needs options${allowApi ? ' (or optionsApi)' : ''}`);
    if (!isEnum && obj.options !== undefined)
      this.add(`${path}.options`, `options are only allowed with ${typeKey} ${enumTypes.join('/')}`);
  }

  uniqueBy(list: Json, path: string, key: string, what: string): void {
    if (!Array.isArray(list)) return;
    const seen = new Map<unknown, number>();
    list.forEach((x, i) => {
      if (!isPlainObject(x) || typeof x[key] !== 'string') return;
      if (seen.has(x[key]))
        this.add(`${path}[${i}].${key}`, `duplicate ${what} ${JSON.stringify(x[key])} (first at ${path}[${seen.get(x[key])}])`);
      else seen.set(x[key], i);
    });
  }
}

/** A link/to target that must later be checked against the route table. */
interface PendingTarget {
  file: string;
  path: string;
  target: string;
}

interface Ctx {
  issues: SchemaIssue[];
  targets: PendingTarget[];
  /** Form schemas opened in a dialog by toolbar actions. */
  formRefs: PendingTarget[];
  /** Entities (schemas/entities) that page schemas may reference. */
  entities: EntityRegistry;
}

function pageDeps(c: FileChecker, ctx: Ctx): PageDeps {
  return {
    reg: ctx.entities,
    toolbar: toolbarActionCheck(c, ctx),
    detailAction: toolbarActionCheck(c, ctx, true),
    rowAction: rowActionCheck(c, ctx),
    target: (path, target) => ctx.targets.push({ file: c.file, path, target }),
  };
}

const entityBound = (data: Json): data is Record<string, Json> => isPlainObject(data) && data.entity !== undefined;

// ---------------------------------------------------------------- actions

/** Shape of an action's `when` (src/schema/when.ts): field → value or non-empty list of values. */
export function whenCheck(c: FileChecker): Check {
  return (w, p) => {
    if (!isPlainObject(w) || Object.keys(w).length === 0) return c.add(p, 'must be a non-empty object of field → value (or list of values)');
    for (const [k, x] of Object.entries(w)) {
      const kp = keyPath(p, k);
      if (Array.isArray(x)) {
        if (x.length === 0) c.add(kp, 'must list at least one value');
        x.forEach((y, i) => typeof y !== 'string' && c.add(`${kp}[${i}]`, `must be a string, got ${describe(y)}`));
      } else if (typeof x !== 'string') c.add(kp, `must be a string or a list of strings, got ${describe(x)}`);
    }
  };
}

/** A toolbar action (tables) or, with `detail`, a detail page action, which may carry `when`. */
function toolbarActionCheck(c: FileChecker, ctx: Ctx, detail = false): Check {
  return (v, path) => {
    if (
      !c.object(v, path, {
        label: { required: true, check: c.str },
        to: { check: c.str },
        href: { check: c.httpUrl },
        form: { check: c.str },
        primary: { check: c.bool },
        userType: { check: c.userTypes },
        ...(detail ? { when: { check: whenCheck(c) } } : {}),
      })
    )
      return;
    const kinds = ['to', 'href', 'form'].filter((k) => v[k] !== undefined);
    if (kinds.length === 0) c.add(path, 'action needs "to" (route), "href" (external link) or "form" (form schema opened in a dialog)');
    if (kinds.length > 1) c.add(path, `action can have only one of "to", "href" and "form" (has ${kinds.map((k) => `"${k}"`).join(' and ')})`);
    if (typeof v.to === 'string') ctx.targets.push({ file: c.file, path: `${path}.to`, target: v.to });
    if (typeof v.form === 'string') ctx.formRefs.push({ file: c.file, path: `${path}.form`, target: v.form });
  };
}

function rowActionCheck(c: FileChecker, ctx: Ctx): Check {
  return (v, path) => {
    if (
      !c.object(v, path, {
        label: { required: true, check: c.str },
        to: { check: c.str },
        api: { check: c.methodApi },
        confirm: { check: c.str },
        userType: { check: c.userTypes },
        when: { check: whenCheck(c) },
      })
    )
      return;
    if (v.to === undefined && v.api === undefined) c.add(path, 'row action needs "to" (route) or "api"');
    if (v.to !== undefined && v.api !== undefined) c.add(path, 'row action cannot have both "to" and "api"');
    if (typeof v.to === 'string') ctx.targets.push({ file: c.file, path: `${path}.to`, target: v.to });
  };
}

// ---------------------------------------------------------------- tables

function validateTable(c: FileChecker, data: Json, ctx: Ctx): void {
  if (entityBound(data)) return validateEntityTable(c, data, pageDeps(c, ctx));
  c.object(data, '$', {
    $schema: { check: c.str },
    id: { required: true, check: c.str },
    title: { required: true, check: c.str },
    api: { required: true, check: c.apiPath },
    rowKey: { required: true, check: c.str },
    columns: {
      required: true,
      check: (v, path) => {
        c.arrayOf(
          (col, p) => {
            if (
              !c.object(col, p, {
                title: { required: true, check: c.str },
                dataIndex: { required: true, check: c.str },
                valueType: { check: c.oneOf(VALUE_TYPES, 'valueType') },
                options: { check: c.enumOptions },
                search: { check: c.bool },
                hideInTable: { check: c.bool },
                sorter: { check: c.bool },
                copyable: { check: c.bool },
                ellipsis: { check: c.bool },
                width: { check: c.posInt },
                link: { check: c.str },
              })
            )
              return;
            c.enumConsistency(col, p, 'valueType', ['enum']);
            if (typeof col.link === 'string') ctx.targets.push({ file: c.file, path: `${p}.link`, target: col.link });
          },
          { nonEmpty: true },
        )(v, path);
        c.uniqueBy(v, path, 'dataIndex', 'column dataIndex');
      },
    },
    toolbar: { check: c.arrayOf(toolbarActionCheck(c, ctx)) },
    rowActions: { check: c.arrayOf(rowActionCheck(c, ctx)) },
    pageSize: { check: c.posInt },
    exportable: { check: c.bool },
  });
}

// ---------------------------------------------------------------- forms

function fieldCheck(c: FileChecker, nested: boolean): Check {
  return (v, path) => {
    if (
      !c.object(v, path, {
        name: { required: true, check: c.str },
        title: { required: true, check: c.str },
        type: { required: true, check: c.oneOf(FIELD_TYPES, 'field type') },
        required: { check: c.bool },
        pattern: { check: c.regex },
        patternMessage: { check: c.str },
        min: { check: c.num },
        max: { check: c.num },
        minLength: { check: c.nonNegInt },
        maxLength: { check: c.posInt },
        options: { check: c.enumOptions },
        optionsApi: { check: c.apiPath },
        placeholder: { check: c.str },
        description: { check: c.str },
        default: { check: c.any },
        columns: {
          check: (cols, p) => {
            c.arrayOf(fieldCheck(c, true), { nonEmpty: true })(cols, p);
            c.uniqueBy(cols, p, 'name', 'column name');
          },
        },
      })
    )
      return;
    c.enumConsistency(v, path, 'type', ['enum', 'multiEnum'], true);
    if (v.optionsApi !== undefined && v.type !== 'enum' && v.type !== 'multiEnum')
      c.add(`${path}.optionsApi`, 'optionsApi is only allowed with type enum/multiEnum');
    if (v.type === 'rows') {
      if (nested) c.add(`${path}.type`, 'type "rows" cannot be nested inside rows columns');
      if (v.columns === undefined) c.add(`${path}.columns`, 'type "rows" needs columns');
    } else if (v.columns !== undefined) {
      c.add(`${path}.columns`, 'columns are only allowed with type "rows"');
    }
    if (v.patternMessage !== undefined && v.pattern === undefined)
      c.add(`${path}.patternMessage`, 'patternMessage without pattern');
    if (typeof v.min === 'number' && typeof v.max === 'number' && v.min > v.max) c.add(path, 'min is greater than max');
    if (typeof v.minLength === 'number' && typeof v.maxLength === 'number' && v.minLength > v.maxLength)
      c.add(path, 'minLength is greater than maxLength');
  };
}

function validateForm(c: FileChecker, data: Json, ctx: Ctx): void {
  if (entityBound(data)) return validateEntityForm(c, data, pageDeps(c, ctx));
  if (
    !c.object(data, '$', {
      $schema: { check: c.str },
      id: { required: true, check: c.str },
      title: { required: true, check: c.str },
      description: { check: c.str },
      submit: {
        required: true,
        check: (v, p) =>
          c.object(v, p, {
            api: { required: true, check: c.apiPath },
            method: { required: true, check: c.oneOf(['POST', 'PUT'], 'method') },
            label: { check: c.str },
          }),
      },
      fields: {
        required: true,
        check: (v, p) => {
          c.arrayOf(fieldCheck(c, false), { nonEmpty: true })(v, p);
          c.uniqueBy(v, p, 'name', 'field name');
        },
      },
      quote: { check: quoteCheck(c) },
      successMessage: { check: c.str },
      successRedirect: { check: c.str },
    })
  )
    return;
  if (typeof data.successRedirect === 'string')
    ctx.targets.push({ file: c.file, path: '$.successRedirect', target: data.successRedirect });
}

// ---------------------------------------------------------------- details

function validateDetail(c: FileChecker, data: Json, ctx: Ctx): void {
  if (entityBound(data)) return validateEntityDetail(c, data, pageDeps(c, ctx));
  if (
    !c.object(data, '$', {
      $schema: { check: c.str },
      id: { required: true, check: c.str },
      title: { required: true, check: c.str },
      api: { check: c.apiPath },
      sections: {
        required: true,
        check: c.arrayOf((s, p) =>
          c.object(s, p, {
            title: { required: true, check: c.str },
            fields: {
              required: true,
              check: (fs, fp) => {
                c.arrayOf(
                  (f, ffp) => {
                    if (
                      c.object(f, ffp, {
                        label: { required: true, check: c.str },
                        dataIndex: { required: true, check: c.str },
                        valueType: { check: c.oneOf(VALUE_TYPES, 'valueType') },
                        options: { check: c.enumOptions },
                        span: { check: c.posInt },
                      })
                    )
                      c.enumConsistency(f, ffp, 'valueType', ['enum']);
                  },
                  { nonEmpty: true },
                )(fs, fp);
                c.uniqueBy(fs, fp, 'dataIndex', 'field dataIndex');
              },
            },
          }),
        ),
      },
      content: { check: c.str },
      actions: { check: c.arrayOf(toolbarActionCheck(c, ctx, true)) },
    })
  )
    return;
  if (data.api === undefined && data.content === undefined) c.add('$.api', 'missing required key "api" (or give static "content")');
  if (Array.isArray(data.sections) && data.sections.length === 0 && data.content === undefined)
    c.add('$.sections', 'must be a non-empty array unless "content" is given');
}

// ---------------------------------------------------------------- routes

interface RouteInfo {
  path: string;
  jsonPath: string;
  isLeaf: boolean;
  hasPage: boolean;
  /** schema files the route renders (its own page schema or a custom page's `schemas`) */
  pages: Array<{ kind: string; schema: string; jsonPath: string }>;
}

/** A route path: absolute, no trailing slash, ':param' segments, only the last one may be optional ('?'). */
function checkRoutePath(c: FileChecker, rp: string, path: string, parentPath: string | null): void {
  if (!rp.startsWith('/')) c.add(`${path}.path`, `path must be absolute (start with "/"), got ${JSON.stringify(rp)}`);
  else if (rp.length > 1 && rp.endsWith('/')) c.add(`${path}.path`, 'path must not end with "/"');
  else if (/\/\//.test(rp) || /\s|#/.test(rp)) c.add(`${path}.path`, `malformed path ${JSON.stringify(rp)}`);
  else {
    const segs = rp.split('/').slice(1);
    segs.forEach((seg, i) => {
      if (!seg.includes('?')) return;
      if (!/^:[A-Za-z_][A-Za-z0-9_]*\?$/.test(seg) || i !== segs.length - 1)
        c.add(`${path}.path`, `only the last segment may be optional and it must look like ":id?", got ${JSON.stringify(rp)}`);
    });
  }
  if (parentPath !== null && !rp.startsWith(parentPath + '/'))
    c.add(`${path}.path`, `child path ${JSON.stringify(rp)} must start with parent path "${parentPath}/"`);
}

function validateRoutesFile(c: FileChecker, data: Json): RouteInfo[] {
  const infos: RouteInfo[] = [];

  const schemaRef = (v: Json, p: string) =>
    c.object(v, p, {
      kind: { required: true, check: c.oneOf(PAGE_KINDS, 'page kind') },
      schema: { required: true, check: c.str },
    });

  const pageCheck: Check = (pg, pp) => {
    if (isPlainObject(pg) && pg.kind === 'custom') {
      c.object(pg, pp, {
        kind: { required: true, check: c.any },
        component: { required: true, check: c.str },
        schemas: { check: c.arrayOf(schemaRef, { nonEmpty: true }) },
      });
    } else {
      c.object(pg, pp, {
        kind: { required: true, check: c.oneOf([...PAGE_KINDS, 'custom'], 'page kind') },
        schema: { required: true, check: c.str },
      });
    }
  };

  const refsOf = (pg: Json, jsonPath: string): RouteInfo['pages'] => {
    if (!isPlainObject(pg)) return [];
    if (pg.kind === 'custom') {
      if (!Array.isArray(pg.schemas)) return [];
      return pg.schemas.flatMap((s, i) =>
        isPlainObject(s) && typeof s.kind === 'string' && typeof s.schema === 'string'
          ? [{ kind: s.kind, schema: s.schema, jsonPath: `${jsonPath}.schemas[${i}].schema` }]
          : [],
      );
    }
    return typeof pg.kind === 'string' && typeof pg.schema === 'string' ? [{ kind: pg.kind, schema: pg.schema, jsonPath: `${jsonPath}.schema` }] : [];
  };

  const routeCheck =
    (parentPath: string | null): Check =>
    (v, path) => {
      const ownPath = isPlainObject(v) && typeof v.path === 'string' ? v.path : null;
      if (
        !c.object(v, path, {
          key: { check: c.str },
          path: { required: true, check: c.str },
          title: { required: true, check: c.str },
          icon: { check: c.oneOf(ICON_NAMES, 'icon') },
          hide: { check: c.bool },
          public: { check: c.bool },
          needServicePack: { check: c.bool },
          servicePackName: { check: c.str },
          userType: { check: c.userTypes },
          navStyle: { check: c.oneOf(NAV_STYLES, 'navStyle') },
          href: { check: c.httpUrl },
          layout: { check: c.oneOf(LAYOUT_GROUPS, 'layout') },
          page: { check: pageCheck },
          childRoutes: { check: c.arrayOf(routeCheck(ownPath), { nonEmpty: true }) },
        })
      )
        return;
      const rp = typeof v.path === 'string' ? v.path : null;
      if (rp !== null) checkRoutePath(c, rp, path, parentPath);
      if (parentPath === null && v.layout === undefined) c.add(`${path}.layout`, 'a top-level route needs "layout" (basic, menu or mine)');
      if (parentPath !== null && v.layout !== undefined) c.add(`${path}.layout`, 'only top-level routes name a layout; children inherit it');
      const hasChildren = v.childRoutes !== undefined;
      const hasPage = v.page !== undefined;
      const hasHref = v.href !== undefined;
      if (hasChildren && (hasPage || hasHref)) c.add(path, 'a group with childRoutes cannot also have "page" or "href"');
      if (!hasChildren && !hasPage && !hasHref) c.add(path, 'leaf route needs "page" (or an external "href")');
      if (hasPage && hasHref) c.add(path, 'route cannot have both "page" and "href"');
      if (v.public === true && v.layout !== undefined && v.layout !== 'basic') c.add(`${path}.layout`, 'a public route renders in the "basic" layout');
      if (v.needServicePack === true && v.servicePackName === undefined)
        c.add(`${path}.servicePackName`, 'needServicePack is true but servicePackName is missing');
      if (v.servicePackName !== undefined && v.needServicePack !== true)
        c.add(`${path}.servicePackName`, 'servicePackName given but needServicePack is not true');
      if (rp !== null) {
        infos.push({ path: rp, jsonPath: path, isLeaf: !hasChildren && (hasPage || hasHref), hasPage, pages: refsOf(v.page, `${path}.page`) });
      }
    };

  if (
    !c.object(data, '$', {
      $schema: { check: c.str },
      brand: { required: true, check: c.str },
      defaultPath: { required: true, check: c.str },
      routes: { required: true, check: c.arrayOf(routeCheck(null), { nonEmpty: true }) },
      redirects: {
        check: (v, p) => {
          if (!isPlainObject(v)) return c.add(p, `must be an object, got ${describe(v)}`);
          for (const [from, to] of Object.entries(v)) c.str(to, keyPath(p, from));
        },
      },
    }) ||
    !Array.isArray(data.routes)
  )
    return infos;

  // unique paths (and keys)
  const seen = new Map<string, string>();
  for (const r of infos) {
    if (seen.has(r.path)) c.add(`${r.jsonPath}.path`, `duplicate route path ${JSON.stringify(r.path)} (first at ${seen.get(r.path)})`);
    else seen.set(r.path, r.jsonPath);
  }
  // leaf count
  const leaves = infos.filter((r) => r.isLeaf).length;
  if (leaves !== EXPECTED_LEAF_ROUTES)
    c.add('$.routes', `expected exactly ${EXPECTED_LEAF_ROUTES} leaf routes (with page or href), found ${leaves}`);
  for (const s of SPEC_SECTION_ROUTES) {
    if (!infos.some((r) => r.path === s && !r.isLeaf)) c.add('$.routes', `section route ${JSON.stringify(s)} (a group with childRoutes) is missing`);
  }
  // defaultPath
  if (typeof data.defaultPath === 'string') {
    const dp = data.defaultPath;
    if (!infos.some((r) => r.isLeaf && r.path === dp))
      c.add('$.defaultPath', `defaultPath ${JSON.stringify(dp)} is not the path of any leaf route`);
  }
  // redirects: from an unknown path to a known route (params of the target must come from the source)
  if (isPlainObject(data.redirects)) {
    for (const [from, to] of Object.entries(data.redirects)) {
      const p = keyPath('$.redirects', from);
      if (typeof to !== 'string') continue;
      if (!from.startsWith('/')) c.add(p, `redirect source must be absolute, got ${JSON.stringify(from)}`);
      if (seen.has(from)) c.add(p, `redirect source ${JSON.stringify(from)} is a route itself`);
      // a target may carry a query ('/x?id=:id'); a trailing '?' alone is the optional-param marker
      const [toPath, toQuery = ''] = to.split(/\?(?=.)/);
      if (!seen.has(toPath)) c.add(p, `redirect target ${JSON.stringify(toPath)} is not a route path`);
      const fromParams = new Set(from.split('/').filter((s) => s.startsWith(':')).map((s) => s.replace(/\?$/, '')));
      const queryParams = toQuery.split('&').map((kv) => kv.split('=')[1] ?? '').filter((v) => v.startsWith(':'));
      for (const tp of [...toPath.split('/').filter((s) => s.startsWith(':') && !s.endsWith('?')), ...queryParams])
        if (!fromParams.has(tp)) c.add(p, `redirect target needs param ${tp} that ${JSON.stringify(from)} does not have`);
    }
  }
  return infos;
}

// ---------------------------------------------------------------- entry points

function classify(file: string): { kind: 'routes' } | { kind: PageKind; id: string } | null {
  if (file === ROUTES_FILE) return { kind: 'routes' };
  const m = /^schemas\/([^/]+)\/([^/]+)\.json$/.exec(file);
  if (!m) return null;
  const kind = PAGE_KINDS.find((k) => PAGE_KIND_DIRS[k] === m[1]);
  return kind ? { kind, id: m[2] } : null;
}

/**
 * Validate a set of parsed schema files keyed by repo-relative path
 * ('schemas/routes.json', 'schemas/tables/orders.json', ...). Returns all issues (empty = valid).
 */
export function validateSchemas(files: Record<string, unknown>): SchemaIssue[] {
  const ctx: Ctx = { issues: [], targets: [], formRefs: [], entities: buildEntityRegistry(files) };
  const pageFiles = new Map<string, string>(); // `${kind}:${id}` -> file
  let routeInfos: RouteInfo[] | null = null;

  const names = Object.keys(files).sort();
  for (const file of names) {
    if (file.startsWith('schemas/meta/')) continue; // JSON Schemas for editors, not console schemas
    const c = new FileChecker(file, ctx.issues);
    const cls = classify(file);
    const data = files[file];
    if (file.startsWith('schemas/meta/')) continue;
    const entityName = entityNameOf(file);
    if (entityName) {
      validateEntityFile(c, data, entityName, ctx.entities);
      continue;
    }
    if (!cls) {
      c.add('$', 'unexpected schema file: expected schemas/routes.json or schemas/{tables,forms,details}/<id>.json');
      continue;
    }
    if (cls.kind === 'routes') {
      routeInfos = validateRoutesFile(c, data);
      continue;
    }
    pageFiles.set(`${cls.kind}:${cls.id}`, file);
    if (cls.kind === 'table') validateTable(c, data, ctx);
    else if (cls.kind === 'form') validateForm(c, data, ctx);
    else validateDetail(c, data, ctx);
    if (isPlainObject(data) && typeof data.id === 'string' && data.id !== cls.id)
      c.add('$.id', `id ${JSON.stringify(data.id)} must equal the file name "${cls.id}"`);
  }

  if (routeInfos === null) {
    ctx.issues.push({ file: ROUTES_FILE, path: '$', reason: 'routes file is missing' });
    return ctx.issues;
  }

  // page references exist in the right folder
  const referenced = new Set<string>();
  for (const pg of routeInfos.flatMap((r) => r.pages)) {
    if (!PAGE_KINDS.includes(pg.kind as PageKind)) continue;
    const key = `${pg.kind}:${pg.schema}`;
    referenced.add(key);
    if (!pageFiles.has(key)) {
      const dir = PAGE_KIND_DIRS[pg.kind as PageKind];
      const elsewhere = PAGE_KINDS.filter((k) => pageFiles.has(`${k}:${pg.schema}`)).map((k) => PAGE_KIND_DIRS[k]);
      ctx.issues.push({
        file: ROUTES_FILE,
        path: pg.jsonPath,
        reason: `page schema "${pg.schema}" not found: expected schemas/${dir}/${pg.schema}.json${
          elsewhere.length ? ` (exists in schemas/${elsewhere.join(', schemas/')}/ — wrong kind?)` : ''
        }`,
      });
    }
  }
  // forms opened from toolbar actions exist (and count as used)
  for (const f of ctx.formRefs) {
    const key = `form:${f.target}`;
    referenced.add(key);
    if (!pageFiles.has(key)) ctx.issues.push({ file: f.file, path: f.path, reason: `form schema "${f.target}" not found: expected schemas/forms/${f.target}.json` });
  }
  // every page file is used
  for (const [key, file] of pageFiles) {
    if (!referenced.has(key))
      ctx.issues.push({ file, path: '$', reason: 'schema file is not referenced by any route in schemas/routes.json (nor opened by a toolbar action)' });
  }
  // link/to targets resolve to a route
  const patterns = routeInfos.filter((r) => r.isLeaf && r.hasPage).map((r) => r.path);
  for (const t of ctx.targets) {
    if (!t.target.startsWith('/')) {
      ctx.issues.push({ file: t.file, path: t.path, reason: `route target must be absolute, got ${JSON.stringify(t.target)}` });
      continue;
    }
    if (!patterns.some((p) => templateTargetsRoute(t.target, p)))
      ctx.issues.push({ file: t.file, path: t.path, reason: `target ${JSON.stringify(t.target)} does not match any page route` });
  }

  return ctx.issues;
}

/** One line per issue: `file: path: reason`. */
export function formatIssues(issues: SchemaIssue[]): string {
  return issues.map((i) => `${i.file}: ${i.path}: ${i.reason}`).join('\n');
}
