/** Where a business switch lands: a page the newly chosen business may open (pure, unit-tested). */
import type { RouteNode } from '../../schema/types';
import { findRoute } from '../../schema/routes';
import { denialForTrail, type AccessContext } from '../access';
import { listPathOf } from '../pages/listPath';
import { trailFor } from './tree';

/**
 * The page to show after switching to a business with access `ctx`, from the current location:
 * - a page the new business may not open (a service pack it lacks, a role it does not have) → the
 *   default landing;
 * - a record of the previous business (a detail route with an :id, a drawer's ?id=, an apply form for
 *   one record) → its list, which the new business has too;
 * - otherwise the same page (lists, forms and overviews show the new business's data).
 */
export function landingAfterSwitch(routes: RouteNode[], defaultPath: string, pathname: string, search: string, ctx: AccessContext): string {
  const hit = findRoute(routes, pathname);
  if (!hit) return defaultPath;
  if (denialForTrail(trailFor(routes, hit.route.path), ctx)) return defaultPath;
  const forRecord = Object.values(hit.params).some((v) => v !== undefined && v !== '') || new URLSearchParams(search).has('id');
  if (!forRecord) return pathname + search;
  const list = listPathOf(pathname, search);
  const listHit = findRoute(routes, list.split('?')[0]);
  return listHit && !denialForTrail(trailFor(routes, listHit.route.path), ctx) ? list : defaultPath;
}
