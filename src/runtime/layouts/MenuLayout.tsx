import { useEffect, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Layout, Menu, Space } from 'antd';
import { observer } from 'mobx-react-lite';
import { routesFile } from '../../schema/registry';
import { useStores } from '../context';
import { buildMenu, openKeysFor, selectedKeyFor, withGroupsOpen } from '../menu';
import { toItems } from './menuItems';
import { useAccessContext } from './AccessLayout';
import { AccountMenu, BusinessSwitch } from './HeaderActions';
import { Brand } from './Brand';
import { SideMenu } from './SideMenu';
import { CONTENT_PADDING, LAYOUT_HEADER_HEIGHT } from '../table/sizing';
import { HEADER_BAR_STYLE } from './headerBar';

/** Only the sections that render in the menu layout (/main, /service, /account) are in its menu. */
const menuRoutes = routesFile.routes.filter((r) => r.layout === 'menu');

const LAYOUT_STYLE = { minHeight: '100vh' };
const HEADER_STYLE = { ...HEADER_BAR_STYLE, height: LAYOUT_HEADER_HEIGHT, lineHeight: `${LAYOUT_HEADER_HEIGHT}px` };
const TOP_MENU_STYLE = { flex: 1, minWidth: 0, borderBottom: 'none', lineHeight: `${LAYOUT_HEADER_HEIGHT - 2}px` };
const SPACER = { flex: 1 };
const CONTENT_STYLE = { padding: CONTENT_PADDING, minWidth: 0 };
const ACTIONS = (
  <Space size="large">
    <BusinessSwitch />
    <AccountMenu withNavSwitch />
  </Space>
);

/**
 * Layout group "menu": the side (or top) menu of the /main, /service and /account sections around the
 * page. This part follows the location and keeps the nav store's keys; the frame below re-renders only
 * when the menu entry shown changes (or the nav store does), not at every navigation.
 */
export const MenuLayout = observer(function MenuLayout() {
  const { nav } = useStores();
  const { pathname } = useLocation();
  const selected = selectedKeyFor(routesFile.routes, pathname);

  useEffect(() => {
    const keys = selected ? [selected] : [];
    if (keys.join() !== nav.selectedKeys.join()) nav.setSelectedKeys(keys);
    const open = withGroupsOpen(nav.openKeys, openKeysFor(routesFile.routes, pathname));
    if (open !== nav.openKeys) nav.setOpenKeys(open);
    if (nav.menuType === 'horizontal') nav.setHorizontalSelectedUrl(pathname);
  }, [pathname, nav, selected]);

  return <MenuFrame selected={selected} />;
});

/**
 * The frame around the page (the router's Outlet) for the menu entry selected: the header (brand, the top
 * menu in the top navigation, business and account) and the side menu in the side navigation. antd's
 * Layout and Menu, not ProLayout: the frame is the same, at a fifth of the main-thread time of a switch
 * into it (docs/decisions.md, "The menu layout is antd's Layout and Menu").
 */
const MenuFrame = observer(function MenuFrame({ selected }: { selected: string | undefined }) {
  const { nav } = useStores();
  const ctx = useAccessContext();
  const entries = useMemo(() => buildMenu(menuRoutes, ctx), [ctx.userType, ctx.servicePacks.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  const top = nav.menuType === 'horizontal';
  const items = useMemo(() => (top ? toItems(entries) : undefined), [top, entries]);
  const selectedKeys = useMemo(() => (selected ? [selected] : []), [selected]);
  return (
    <Layout style={LAYOUT_STYLE}>
      <Layout.Header style={HEADER_STYLE}>
        <Brand />
        {top ? <Menu mode="horizontal" items={items} selectedKeys={selectedKeys} style={TOP_MENU_STYLE} aria-label="主菜单" /> : <div style={SPACER} />}
        {ACTIONS}
      </Layout.Header>
      <Layout hasSider={!top}>
        {!top && <SideMenu entries={entries} selected={selected} />}
        <Layout.Content style={CONTENT_STYLE}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
});
