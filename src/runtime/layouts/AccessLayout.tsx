import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { observer } from 'mobx-react-lite';
import type { RouteNode } from '../../schema/types';
import { routesFile } from '../../schema/registry';
import { useStores } from '../context';
import { denialForTrail, type AccessContext } from '../access';
import { trailFor } from '../nav/tree';
import { servicePackLabel } from '../../shared/labels';
import { DeniedView } from '../nav/DeniedView';

/** Where a signed-out visitor (or one without a chosen business) is sent: sign-in, keeping the target. */
export function signInUrl(target: string, step?: 'business'): string {
  const q = new URLSearchParams();
  // The default landing is where sign-in goes anyway: no need to carry it.
  if (target && target !== '/' && target !== routesFile.defaultPath) q.set('redirect', target);
  if (step) q.set('step', step);
  const s = q.toString();
  return `/login/index${s ? `?${s}` : ''}`;
}

/** The access context of the chosen business (user type and service packs). */
export function useAccessContext(): AccessContext {
  const { user } = useStores();
  const biz = user.currentBusiness;
  return { userType: biz?.userType, servicePacks: biz?.servicePacks ?? [] };
}

/**
 * Layout group "access": signed-in pages only. Signed out → sign-in with ?redirect= (survives a
 * reload); signed in without a chosen business → the business step of sign-in.
 */
export const AccessLayout = observer(function AccessLayout() {
  const { user } = useStores();
  const location = useLocation();
  const target = location.pathname + location.search;
  if (!user.isLoggedIn) return <Navigate to={signInUrl(target)} replace />;
  if (!user.currentBusiness) return <Navigate to={signInUrl(target, 'business')} replace />;
  return <Outlet />;
});

/** 403 in Chinese for a route closed by service pack or user type; the pack is named by its label. */
export const RouteGuard = observer(function RouteGuard({ route, children }: { route: RouteNode; children: ReactNode }) {
  const ctx = useAccessContext();
  const denial = denialForTrail(trailFor(routesFile.routes, route.path), ctx);
  if (!denial) return <>{children}</>;
  return (
    <DeniedView
      subTitle={
        denial.reason === 'servicePack'
          ? `当前企业未开通「${servicePackLabel(denial.servicePackName)}」服务包，开通后即可使用${route.title}。`
          : '当前账号在该企业的角色无权访问此页面，请联系企业管理员。'
      }
    />
  );
});
