/** Pure route helpers (no vite, no fs) so both the browser runtime and node tests can use them. */
import type { RouteNode } from './types';

/** True when the route is a leaf: it has a page or an external href (group folders are not leaves). */
export function isLeafRoute(route: RouteNode): boolean {
  return route.page !== undefined || route.href !== undefined;
}

/** All leaf routes (routes with a page or href), depth-first in file order. */
export function flattenRoutes(routes: RouteNode[]): RouteNode[] {
  const out: RouteNode[] = [];
  const walk = (list: RouteNode[]) => {
    for (const r of list) {
      if (isLeafRoute(r)) out.push(r);
      if (r.childRoutes) walk(r.childRoutes);
    }
  };
  walk(routes);
  return out;
}

/** Every route node (groups and leaves), depth-first. */
export function allRoutes(routes: RouteNode[]): RouteNode[] {
  const out: RouteNode[] = [];
  const walk = (list: RouteNode[]) => {
    for (const r of list) {
      out.push(r);
      if (r.childRoutes) walk(r.childRoutes);
    }
  };
  walk(routes);
  return out;
}

/** Path segments without query or hash; a trailing '?' (optional-param marker ':id?') is kept. */
function splitPath(p: string): string[] {
  const clean = p.replace(/#.*$/, '').replace(/\?(?=.).*$/, '');
  return clean.split('/').filter((s) => s.length > 0);
}

const isOptional = (seg: string) => seg.startsWith(':') && seg.endsWith('?');
const paramName = (seg: string) => seg.slice(1).replace(/\?$/, '');

/**
 * Match a route pattern such as '/order/detail/:id' against a concrete pathname.
 * Returns the params ({ id: '42' }) or null when it does not match. A last segment ':id?' is optional.
 * Trailing slashes are ignored; a query string or hash on the pathname is ignored.
 */
export function matchRoute(pattern: string, pathname: string): Record<string, string> | null {
  let ps = splitPath(pattern);
  const xs = splitPath(pathname);
  if (ps.length > 0 && isOptional(ps[ps.length - 1]) && xs.length === ps.length - 1) ps = ps.slice(0, -1);
  if (ps.length !== xs.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    const x = xs[i];
    if (p.startsWith(':')) {
      if (!x) return null;
      try {
        params[paramName(p)] = decodeURIComponent(x);
      } catch {
        params[paramName(p)] = x;
      }
    } else if (p !== x) {
      return null;
    }
  }
  return params;
}

/**
 * True when a link template (e.g. '/order/detail/:id' or '/invoice/apply') can lead to the route
 * pattern: literal segments must be equal, a route param matches any segment, and a
 * ':placeholder' segment in the template only matches a route param. An optional last route
 * segment may be left out.
 */
export function templateTargetsRoute(template: string, pattern: string): boolean {
  const ts = splitPath(template);
  let ps = splitPath(pattern);
  if (ps.length > 0 && isOptional(ps[ps.length - 1]) && ts.length === ps.length - 1) ps = ps.slice(0, -1);
  if (ts.length !== ps.length) return false;
  return ps.every((p, i) => {
    const t = ts[i];
    if (p.startsWith(':')) return t.length > 0;
    return !t.startsWith(':') && t === p;
  });
}

/** Builds a concrete path from a pattern and params: '/x/:id?' with {} gives '/x', with {id:'7'} '/x/7'. */
export function buildPath(pattern: string, params: Record<string, string | undefined>): string {
  const segs = splitPath(pattern).flatMap((seg) => {
    if (!seg.startsWith(':')) return [seg];
    const v = params[paramName(seg)];
    if (v === undefined || v === '') {
      if (isOptional(seg)) return [];
      throw new Error(`buildPath: missing param ${paramName(seg)} for ${pattern}`);
    }
    return [encodeURIComponent(v)];
  });
  return `/${segs.join('/')}`;
}

/** A ':field' placeholder of a link template or API path. */
const PLACEHOLDER = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** Fill ':field' placeholders in a link template from a record, e.g. ('/order/detail/:id', {id: 7}). */
export function fillPath(template: string, record: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_m, key: string) => encodeURIComponent(String(record[key] ?? '')));
}

/** The names of a template's ':field' placeholders, in order ('/api/orders/:id' → ['id']). */
export function templateParams(template: string): string[] {
  return Array.from(template.matchAll(PLACEHOLDER), (m) => m[1]);
}

/** Find the leaf route whose pattern matches a pathname (first match wins). */
export function findRoute(
  routes: RouteNode[],
  pathname: string,
): { route: RouteNode; params: Record<string, string> } | null {
  // Literal segments win over params: '/invoice/refunds/apply' before '/invoice/refunds/:x'.
  const paramCount = (r: RouteNode) => splitPath(r.path).filter((s) => s.startsWith(':')).length;
  const candidates = flattenRoutes(routes)
    .filter((r) => r.page)
    .sort((a, b) => paramCount(a) - paramCount(b));
  for (const route of candidates) {
    const params = matchRoute(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}
