import type { RouteNode } from '../schema/types';
import { canAccess, type AccessContext } from './access';
import { trailFor } from './nav/tree';

/** One menu entry (icon is resolved to a React node by the layout). */
export interface MenuEntry {
  path: string;
  name: string;
  icon?: string;
  /** External link: opened in a new tab. */
  href?: string;
  children?: MenuEntry[];
}

/**
 * Builds the menu layout's menu from the route tree: hidden and public routes, routes the user may not
 * open (service pack, user type) and groups left empty are not shown.
 */
export function buildMenu(routes: RouteNode[], ctx: AccessContext): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const r of routes) {
    if (r.hide || r.public || r.navStyle === 'none' || !canAccess(r, ctx)) continue;
    if (r.childRoutes && r.childRoutes.length > 0) {
      const children = buildMenu(r.childRoutes, ctx);
      if (children.length === 0) continue;
      out.push({ path: r.path, name: r.title, icon: r.icon, children });
    } else if (r.page || r.href) {
      out.push({ path: r.path, name: r.title, icon: r.icon, href: r.href });
    }
  }
  return out;
}

/** Menu keys of the groups that contain `pathname` (for the menu's openKeys). */
export function openKeysFor(routes: RouteNode[], pathname: string): string[] {
  return trailFor(routes, pathname)
    .filter((n) => n.childRoutes?.length)
    .map((n) => n.path);
}

/** The open groups with `groups` opened too: `open` itself when they already are (no new array, no store write). */
export function withGroupsOpen(open: string[], groups: string[]): string[] {
  return groups.every((k) => open.includes(k)) ? open : [...open, ...groups.filter((k) => !open.includes(k))];
}

/** Menu key to highlight: the page itself, or for a hidden page (a detail) the nearest shown sibling list. */
export function selectedKeyFor(routes: RouteNode[], pathname: string): string | undefined {
  const trail = trailFor(routes, pathname);
  const leaf = trail[trail.length - 1];
  if (!leaf) return undefined;
  if (!leaf.hide) return leaf.path;
  const parent = trail[trail.length - 2];
  const shown = parent?.childRoutes?.filter((c) => !c.hide && !c.childRoutes && leaf.path.startsWith(`${c.path}/`));
  return shown?.[0]?.path;
}

/** Browser tab title: the page title followed by the brand suffix. */
export function documentTitle(title: string, brand: string): string {
  const b = brand.trim();
  return b ? `${title} ${b}` : title;
}
