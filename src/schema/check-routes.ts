/**
 * What routes.schema.json cannot say about schemas/routes.json: a child's path starts with its
 * parent's, paths are unique, the default path and redirect targets are routes, and which page schema
 * files the routes render. The route entries' keys, types and rules are the meta schema's.
 */
import { isObj, keyPath } from './issues';

export const ROUTES_FILE = 'schemas/routes.json';

export interface RouteInfo {
  path: string;
  jsonPath: string;
  isLeaf: boolean;
  hasPage: boolean;
  /** schema files the route renders (its own page schema or a custom page's `schemas`) */
  pages: Array<{ kind: string; schema: string; jsonPath: string }>;
}

type Add = (path: string, reason: string) => void;

function pagesOf(page: unknown, jsonPath: string): RouteInfo['pages'] {
  if (!isObj(page)) return [];
  if (page.kind === 'custom') {
    if (!Array.isArray(page.schemas)) return [];
    return page.schemas.flatMap((s, i) =>
      isObj(s) && typeof s.kind === 'string' && typeof s.schema === 'string'
        ? [{ kind: s.kind, schema: s.schema, jsonPath: `${jsonPath}.schemas[${i}].schema` }]
        : [],
    );
  }
  return typeof page.kind === 'string' && typeof page.schema === 'string' ? [{ kind: page.kind, schema: page.schema, jsonPath: `${jsonPath}.schema` }] : [];
}

/** Every route entry with a string path, depth-first; reports children outside their parent's path. */
function walk(list: unknown, at: string, parentPath: string | null, add: Add, out: RouteInfo[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((r, i) => {
    const jsonPath = `${at}[${i}]`;
    if (!isObj(r)) return;
    const own = typeof r.path === 'string' ? r.path : null;
    if (own !== null && parentPath !== null && own.startsWith('/') && !own.startsWith(parentPath + '/'))
      add(`${jsonPath}.path`, `child path ${JSON.stringify(own)} must start with parent path "${parentPath}/"`);
    const hasChildren = r.childRoutes !== undefined;
    const hasPage = r.page !== undefined;
    if (own !== null)
      out.push({ path: own, jsonPath, isLeaf: !hasChildren && (hasPage || r.href !== undefined), hasPage, pages: pagesOf(r.page, `${jsonPath}.page`) });
    walk(r.childRoutes, `${jsonPath}.childRoutes`, own, add, out);
  });
}

/** Checks the route tree as a whole and answers its routes. */
export function checkRoutes(data: unknown, add: Add): RouteInfo[] {
  const infos: RouteInfo[] = [];
  if (!isObj(data)) return infos;
  walk(data.routes, '$.routes', null, add, infos);

  const seen = new Map<string, string>();
  for (const r of infos) {
    if (seen.has(r.path)) add(`${r.jsonPath}.path`, `duplicate route path ${JSON.stringify(r.path)} (first at ${seen.get(r.path)})`);
    else seen.set(r.path, r.jsonPath);
  }
  if (typeof data.defaultPath === 'string' && !infos.some((r) => r.isLeaf && r.path === data.defaultPath))
    add('$.defaultPath', `defaultPath ${JSON.stringify(data.defaultPath)} is not the path of any leaf route`);

  // redirects: from an unknown path to a known route (params of the target must come from the source)
  if (isObj(data.redirects)) {
    for (const [from, to] of Object.entries(data.redirects)) {
      const p = keyPath('$.redirects', from);
      if (typeof to !== 'string') continue;
      if (seen.has(from)) add(p, `redirect source ${JSON.stringify(from)} is a route itself`);
      // a target may carry a query ('/x?id=:id'); a trailing '?' alone is the optional-param marker
      const [toPath, toQuery = ''] = to.split(/\?(?=.)/);
      if (!seen.has(toPath)) add(p, `redirect target ${JSON.stringify(toPath)} is not a route path`);
      const fromParams = new Set(from.split('/').filter((s) => s.startsWith(':')).map((s) => s.replace(/\?$/, '')));
      const queryParams = toQuery.split('&').map((kv) => kv.split('=')[1] ?? '').filter((v) => v.startsWith(':'));
      for (const tp of [...toPath.split('/').filter((s) => s.startsWith(':') && !s.endsWith('?')), ...queryParams])
        if (!fromParams.has(tp)) add(p, `redirect target needs param ${tp} that ${JSON.stringify(from)} does not have`);
    }
  }
  return infos;
}
