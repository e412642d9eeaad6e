import { Breadcrumb, theme } from 'antd';
import { Link, useLocation } from 'react-router-dom';
import { routesFile } from '../../schema/registry';
import { breadcrumbFor } from './tree';

/** Page header of every signed-in page: breadcrumb from the route tree and the page title. */
export function PageHeader({ title }: { title: string }) {
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const crumbs = breadcrumbFor(routesFile.routes, pathname);
  const items = [
    ...(crumbs[0]?.path === routesFile.defaultPath || pathname === routesFile.defaultPath ? [] : [{ title: <Link to={routesFile.defaultPath}>工作台</Link> }]),
    ...crumbs.map((c) => ({ title: c.path ? <Link to={c.path}>{c.title}</Link> : c.title })),
  ];
  return (
    <div className="console-page-header" style={{ marginBottom: 16 }}>
      <Breadcrumb items={items} />
      {/* Styled as antd's Typography.Title level 4; Typography's editing and copying code is not needed for a title. */}
      <h1
        style={{ margin: '8px 0 0', color: token.colorTextHeading, fontSize: token.fontSizeHeading4, lineHeight: token.lineHeightHeading4, fontWeight: token.fontWeightStrong }}
        data-testid="page-title"
      >
        {title}
      </h1>
    </div>
  );
}
