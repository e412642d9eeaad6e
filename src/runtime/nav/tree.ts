/** Pure helpers over the route tree: find a node, its trail (breadcrumb), first child, redirects. */
import type { LayoutGroup, RouteNode } from '../../schema/types';
import { buildPath, fillPath, matchRoute } from '../../schema/routes';
import { canAccess, type AccessContext } from '../access';

/** The nodes from the top-level entry down to the node whose pattern matches `pathname` (group or leaf). */
export function trailFor(routes: RouteNode[], pathname: string): RouteNode[] {
  for (const r of routes) {
    if (matchRoute(r.path, pathname)) return [r];
    if (r.childRoutes) {
      const sub = trailFor(r.childRoutes, pathname);
      if (sub.length) return [r, ...sub];
    }
  }
  return [];
}

/** The layout group a node renders in: that of its top-level entry. */
export function layoutOf(routes: RouteNode[], path: string): LayoutGroup | undefined {
  return trailFor(routes, path)[0]?.layout;
}

export interface Crumb {
  title: string;
  /** link target; absent for the current page */
  path?: string;
}

/** Breadcrumb of a page: its groups (linking to the group path, which opens the first child) then itself. */
export function breadcrumbFor(routes: RouteNode[], pathname: string): Crumb[] {
  const trail = trailFor(routes, pathname);
  return trail.map((n, i) => (i === trail.length - 1 ? { title: n.title } : { title: n.title, path: n.path }));
}

/**
 * The first leaf below a group the user may open and that needs no params (hidden detail pages and
 * external links are skipped). Null when there is none.
 */
export function firstAccessibleChild(node: RouteNode, ctx: AccessContext): RouteNode | null {
  if (!canAccess(node, ctx)) return null;
  if (!node.childRoutes) return node.page && !node.hide && !node.path.includes('/:') ? node : null;
  for (const c of node.childRoutes) {
    const hit = firstAccessibleChild(c, ctx);
    if (hit) return hit;
  }
  return null;
}

/** Every group node (a node with childRoutes), depth-first. */
export function groupRoutes(routes: RouteNode[]): RouteNode[] {
  return routes.flatMap((r) => (r.childRoutes ? [r, ...groupRoutes(r.childRoutes)] : []));
}

/**
 * Where an old path goes: the redirect target with the source's params filled in (also in a query
 * like '?id=:id'), and the visitor's own query string kept. Null when no redirect matches.
 */
export function resolveRedirect(redirects: Record<string, string>, pathname: string, search = ''): string | null {
  for (const [from, to] of Object.entries(redirects)) {
    const params = matchRoute(from, pathname);
    if (!params) continue;
    return redirectTarget(to, params, search);
  }
  return null;
}

/** Fills a redirect target with params and appends the visitor's query string. */
export function redirectTarget(to: string, params: Record<string, string | undefined>, search = ''): string {
  const [pattern, query = ''] = to.split(/\?(?=.)/);
  const path = buildPath(pattern, params);
  const filledQuery = fillPath(query, params);
  const own = search.replace(/^\?/, '');
  const q = [filledQuery, own].filter(Boolean).join('&');
  return q ? `${path}?${q}` : path;
}

/** A safe in-app return target from `?redirect=` (relative path only; never another origin). */
export function safeRedirect(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  return raw;
}
