import { Navigate, useLocation, useParams } from 'react-router-dom';
import { observer } from 'mobx-react-lite';
import type { RouteNode } from '../../schema/types';
import { useAccessContext } from '../layouts/AccessLayout';
import { firstAccessibleChild, redirectTarget } from './tree';
import { DeniedView } from './DeniedView';

/** An old path of the previous console: goes to its new path, params and query string kept. */
export function OldPathRedirect({ to }: { to: string }) {
  const params = useParams();
  const { search } = useLocation();
  return <Navigate to={redirectTarget(to, params, search)} replace />;
}

/** A section or group path opens its first child the user may open. */
export const SectionRedirect = observer(function SectionRedirect({ node }: { node: RouteNode }) {
  const ctx = useAccessContext();
  const { search } = useLocation();
  const first = firstAccessibleChild(node, ctx);
  if (!first) return <DeniedView subTitle={`当前企业下没有可访问的${node.title}页面。`} />;
  return <Navigate to={first.path + search} replace />;
});
