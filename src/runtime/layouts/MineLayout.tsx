import { Link, Outlet } from 'react-router-dom';
import { Layout, Space } from 'antd';
import { observer } from 'mobx-react-lite';
import { routesFile } from '../../schema/registry';
import { firstAccessibleChild } from '../nav/tree';
import { iconFor } from '../icons';
import { useAccessContext } from './AccessLayout';
import { AccountMenu, BusinessSwitch } from './HeaderActions';
import { Brand } from './Brand';
import { HEADER_BAR_STYLE } from './headerBar';

/** Entry links into the menu-layout sections the user may open (shown in the top bar). */
export const SectionLinks = observer(function SectionLinks() {
  const ctx = useAccessContext();
  const sections = routesFile.routes.filter((r) => r.layout === 'menu' && firstAccessibleChild(r, ctx));
  return (
    <Space size="large" data-testid="section-links">
      {sections.map((s) => (
        <Link key={s.path} to={s.path}>
          <Space size={4}>
            {iconFor(s.icon)}
            {s.title}
          </Space>
        </Link>
      ))}
    </Space>
  );
});

/** Layout group "mine": the workbench frame without the side menu — top bar with brand, sections, business, account. */
export function MineLayout() {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={HEADER_BAR_STYLE}>
        <Brand />
        <div style={{ flex: 1 }}>
          <SectionLinks />
        </div>
        <Space size="large">
          <BusinessSwitch />
          <AccountMenu />
        </Space>
      </Layout.Header>
      <Layout.Content style={{ padding: 24, maxWidth: 1280, width: '100%', margin: '0 auto' }}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
