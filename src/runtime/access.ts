import type { RouteNode, UserType } from '../schema/types';

/** What the signed-in user may see: the selected business's user type and service packs. */
export interface AccessContext {
  userType?: UserType;
  servicePacks: string[];
}

export type AccessDenial = { reason: 'servicePack'; servicePackName: string } | { reason: 'userType'; allowed: UserType[] };

/** Why a route is not open to this user, or null when it is. */
export function denialFor(route: RouteNode, ctx: AccessContext): AccessDenial | null {
  if (route.needServicePack && route.servicePackName && !ctx.servicePacks.includes(route.servicePackName)) {
    return { reason: 'servicePack', servicePackName: route.servicePackName };
  }
  if (route.userType && route.userType.length > 0 && (!ctx.userType || !route.userType.includes(ctx.userType))) {
    return { reason: 'userType', allowed: route.userType };
  }
  return null;
}

/** The first denial along a trail of nodes (a group's requirement applies to all its children). */
export function denialForTrail(trail: RouteNode[], ctx: AccessContext): AccessDenial | null {
  for (const n of trail) {
    const d = denialFor(n, ctx);
    if (d) return d;
  }
  return null;
}

export function canAccess(route: RouteNode, ctx: AccessContext): boolean {
  return denialFor(route, ctx) === null;
}

/** True when an action limited to some user types is available to this user. */
export function allowedFor(userTypes: UserType[] | undefined, ctx: AccessContext): boolean {
  return !userTypes || userTypes.length === 0 || (!!ctx.userType && userTypes.includes(ctx.userType));
}
