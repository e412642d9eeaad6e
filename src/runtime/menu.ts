import type { RouteNode } from '../schema/types';
import { canAccess, type AccessContext } from './access';

/** One ProLayout menu entry (icon is resolved to a React node by the layout). */
export interface MenuEntry {
  path: string;
  name: string;
  icon?: string;
  /** External link: opened in a new tab. */
  href?: string;
  children?: MenuEntry[];
}

/**
 * Builds the ProLayout menu from the route tree: hidden and public routes, routes the user may not
 * open (service pack, user type) and groups left empty are not shown.
 */
export function buildMenu(routes: RouteNode[], ctx: AccessContext): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const r of routes) {
    if (r.hidden || r.public || r.navStyle === 'none' || !canAccess(r, ctx)) continue;
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
  const keys: string[] = [];
  const walk = (list: RouteNode[], trail: string[]): boolean => {
    for (const r of list) {
      if (r.childRoutes?.length) {
        if (walk(r.childRoutes, [...trail, r.path])) return true;
      } else if (r.path === pathname) {
        keys.push(...trail);
        return true;
      }
    }
    return false;
  };
  walk(routes, []);
  return keys;
}

/** Browser tab title: the page title followed by the brand suffix. */
export function documentTitle(title: string, brand: string): string {
  const b = brand.trim();
  return b ? `${title} ${b}` : title;
}
