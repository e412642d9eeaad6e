/**
 * Validation of the schema files under schemas/ (browser and node): each file against its meta
 * schema (meta.ts, worded by messages.ts), then what only code can check (check-entities.ts,
 * check-pages.ts, check-routes.ts) and the references between files: page schemas the routes render
 * exist and are used, links and redirects lead to routes. Reports every problem as
 * { file, path, reason } instead of throwing; a file that cannot be read or is invalid is reported
 * once, in that file, and not again in every file that refers to it.
 */
import { buildEntityRegistry, entityNameOf } from '../shared/entity/registry';
import { checkEntity } from './check-entities';
import { checkPage } from './check-pages';
import { checkRoutes, ROUTES_FILE, type RouteInfo } from './check-routes';
import { Issues, isObj } from './issues';
import { messagesOf } from './messages';
import { metaValidator, type FileKind } from './meta';
import { templateTargetsRoute } from './routes';
import { PAGE_KIND_DIRS, type PageKind, type SchemaIssue } from './types';

export type { SchemaIssue } from './types';
export { formatIssues } from './issues';
export { ROUTES_FILE } from './check-routes';

const PAGE_KINDS = Object.keys(PAGE_KIND_DIRS) as PageKind[];

export interface ValidateOptions {
  /** files that exist but could not be read or parsed (already reported by the loader) */
  unreadable?: readonly string[];
}

/** What a file under schemas/ is: its kind and its name (entity name or page id), or null. */
export function classify(file: string): { kind: FileKind; name: string } | 'meta' | null {
  if (file === ROUTES_FILE) return { kind: 'routes', name: 'routes' };
  if (file.startsWith('schemas/meta/')) return 'meta';
  const entity = entityNameOf(file);
  if (entity) return { kind: 'entity', name: entity };
  const m = /^schemas\/([^/]+)\/([^/]+)\.json$/.exec(file);
  const kind = m && PAGE_KINDS.find((k) => PAGE_KIND_DIRS[k] === m[1]);
  return kind ? { kind, name: m[2] } : null;
}

interface Link {
  file: string;
  path: string;
  target: string;
}

/**
 * Validate a set of parsed schema files keyed by repo-relative path
 * ('schemas/routes.json', 'schemas/tables/orders.json', ...). Returns all issues (empty = valid).
 */
export function validateSchemas(files: Record<string, unknown>, opts: ValidateOptions = {}): SchemaIssue[] {
  const out = new Issues();
  const unreadable = new Set(opts.unreadable ?? []);
  const kinds = new Map<string, { kind: FileKind; name: string }>();

  // 1. every file against the meta schema of its kind
  for (const file of Object.keys(files).sort()) {
    const cls = classify(file);
    if (cls === 'meta') continue;
    if (!cls) {
      out.add(file, '$', 'unexpected schema file: expected schemas/routes.json or schemas/{entities,tables,forms,details}/<name>.json');
      continue;
    }
    kinds.set(file, cls);
    const validate = metaValidator(cls.kind);
    if (!validate(files[file])) for (const i of messagesOf(file, files[file], validate.errors ?? [])) out.add(i.file, i.path, i.reason);
  }

  // 2. entities: references between them; an entity whose file has problems is not referred to again
  const entityFiles = [...kinds].filter(([, c]) => c.kind === 'entity');
  const broken = new Set<string>([...unreadable].map(entityNameOf).filter((n): n is string => !!n));
  for (const [file, c] of entityFiles) if (out.has(file)) broken.add(c.name);
  const reg = buildEntityRegistry(files);
  // An entity that copies its fields from a broken one is not checked against by pages either.
  for (const [file, c] of entityFiles) {
    const data = files[file];
    if (isObj(data) && isObj(data.fieldsFrom) && broken.has(String(data.fieldsFrom.entity))) broken.add(c.name);
  }
  for (const [file, c] of entityFiles) checkEntity(files[file], c.name, { reg, broken }, out.for(file));

  // 3. pages: entity fields, links and dialog forms
  const targets: Link[] = [];
  const forms: Link[] = [];
  const pageFiles = new Map<string, string>(); // `${kind}:${id}` -> file
  for (const [file, c] of kinds) {
    if (c.kind === 'entity' || c.kind === 'routes') continue;
    pageFiles.set(`${c.kind}:${c.name}`, file);
    checkPage(c.kind, files[file], c.name, {
      reg,
      broken,
      // the fields its file declares (a reference that does not resolve is reported there) and those it copies
      declared: (name) => {
        const data = files[`schemas/entities/${name}.json`];
        if (!isObj(data) || !isObj(data.fields)) return undefined;
        return [...new Set([...Object.keys(reg.has(name) ? reg.get(name).fields : {}), ...Object.keys(data.fields)])];
      },
      target: (path, target) => targets.push({ file, path, target }),
      form: (path, target) => forms.push({ file, path, target }),
    }, out.for(file));
  }

  // 4. routes and the references between pages and routes
  if (!(ROUTES_FILE in files)) {
    if (!unreadable.has(ROUTES_FILE)) out.add(ROUTES_FILE, '$', 'routes file is missing');
    return out.list;
  }
  const routes = checkRoutes(files[ROUTES_FILE], out.for(ROUTES_FILE));
  checkReferences(routes, pageFiles, targets, forms, unreadable, out);
  return out.list;
}

function checkReferences(routes: RouteInfo[], pageFiles: Map<string, string>, targets: Link[], forms: Link[], unreadable: ReadonlySet<string>, out: Issues): void {
  const exists = (kind: PageKind, id: string) => pageFiles.has(`${kind}:${id}`) || unreadable.has(`schemas/${PAGE_KIND_DIRS[kind]}/${id}.json`);
  const referenced = new Set<string>();
  for (const pg of routes.flatMap((r) => r.pages)) {
    const kind = pg.kind as PageKind;
    if (!PAGE_KINDS.includes(kind)) continue;
    referenced.add(`${kind}:${pg.schema}`);
    if (exists(kind, pg.schema)) continue;
    const elsewhere = PAGE_KINDS.filter((k) => pageFiles.has(`${k}:${pg.schema}`)).map((k) => PAGE_KIND_DIRS[k]);
    out.add(
      ROUTES_FILE,
      pg.jsonPath,
      `page schema "${pg.schema}" not found: expected schemas/${PAGE_KIND_DIRS[kind]}/${pg.schema}.json${
        elsewhere.length ? ` (exists in schemas/${elsewhere.join(', schemas/')}/ — wrong kind?)` : ''
      }`,
    );
  }
  // forms opened from toolbar actions exist (and count as used)
  for (const f of forms) {
    referenced.add(`form:${f.target}`);
    if (!exists('form', f.target)) out.add(f.file, f.path, `form schema "${f.target}" not found: expected schemas/forms/${f.target}.json`);
  }
  // every page file is used
  for (const [key, file] of pageFiles)
    if (!referenced.has(key)) out.add(file, '$', 'schema file is not referenced by any route in schemas/routes.json (nor opened by a toolbar action)');
  // link/to targets resolve to a page route
  const patterns = routes.filter((r) => r.isLeaf && r.hasPage).map((r) => r.path);
  for (const t of targets) {
    if (!t.target.startsWith('/')) out.add(t.file, t.path, `route target must be absolute, got ${JSON.stringify(t.target)}`);
    else if (!patterns.some((p) => templateTargetsRoute(t.target, p))) out.add(t.file, t.path, `target ${JSON.stringify(t.target)} does not match any page route`);
  }
}
