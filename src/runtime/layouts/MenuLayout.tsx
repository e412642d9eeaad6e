import { useEffect, useMemo, type ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { ProLayout, type MenuDataItem } from '@ant-design/pro-components';
import { observer } from 'mobx-react-lite';
import { routesFile } from '../../schema/registry';
import { useStores } from '../context';
import { buildMenu, openKeysFor, selectedKeyFor, type MenuEntry } from '../menu';
import { iconFor } from '../icons';
import { useAccessContext } from './AccessLayout';
import { AccountMenu, BusinessSwitch } from './HeaderActions';
import { Brand } from './Brand';

function toMenuData(entries: MenuEntry[]): MenuDataItem[] {
  return entries.map((e) => ({
    path: e.href ?? e.path,
    key: e.path,
    name: e.name,
    icon: iconFor(e.icon),
    isUrl: Boolean(e.href),
    children: e.children ? toMenuData(e.children) : undefined,
  }));
}

/** Only the sections that render in the menu layout (/main, /service, /account) are in its menu. */
const menuRoutes = routesFile.routes.filter((r) => r.layout === 'menu');

// ProLayout's props that never change are made once: it derives its menu data again (every route through
// @umijs/route-utils) whenever `menu` or `route` is a new object, which an inline literal is at every render,
// i.e. at every navigation.
const MENU = { type: 'sub' } as const;
const CONTENT_STYLE = { padding: '24px' };
const brand = () => <Brand />;
const actions = () => [<BusinessSwitch key="biz" />, <AccountMenu key="account" withNavSwitch />];
function menuItem(item: MenuDataItem, dom: ReactNode) {
  return item.isUrl ? (
    <a href={item.path} target="_blank" rel="noreferrer">
      {dom}
    </a>
  ) : (
    <Link to={item.path ?? '/'}>{dom}</Link>
  );
}

/**
 * Layout group "menu": ProLayout with the side (or top) menu of the /main, /service and /account sections.
 * This part follows the location; the frame below re-renders only when the menu entry shown changes (or
 * the nav store does), not at every navigation: ProLayout gives its side menu a new antd theme at every
 * render, which makes every menu item compute its design tokens again (about half of a navigation's
 * main-thread time between two pages of one menu entry, such as an order list and an order's detail).
 */
export const MenuLayout = observer(function MenuLayout() {
  const { nav } = useStores();
  const { pathname } = useLocation();
  const selected = selectedKeyFor(routesFile.routes, pathname);

  useEffect(() => {
    const keys = selected ? [selected] : [];
    if (keys.join() !== nav.selectedKeys.join()) nav.setSelectedKeys(keys);
    const open = openKeysFor(routesFile.routes, pathname);
    if (open.length && !open.every((k) => nav.openKeys.includes(k))) nav.setOpenKeys([...new Set([...nav.openKeys, ...open])]);
    if (nav.menuType === 'horizontal') nav.setHorizontalSelectedUrl(pathname);
  }, [pathname, nav, selected]);

  return <MenuFrame shown={selected ?? pathname} selected={selected} />;
});

/** ProLayout around the page (the router's Outlet), for the menu entry `shown`. */
const MenuFrame = observer(function MenuFrame({ shown, selected }: { shown: string; selected: string | undefined }) {
  const { nav } = useStores();
  const ctx = useAccessContext();
  const menu = useMemo(() => toMenuData(buildMenu(menuRoutes, ctx)), [ctx.userType, ctx.servicePacks.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  const route = useMemo(() => ({ path: '/', children: menu }), [menu]);
  const location = useMemo(() => ({ pathname: shown }), [shown]);
  const selectedKeys = useMemo(() => (selected ? [selected] : []), [selected]);

  return (
    <ProLayout
      // No title and pageTitleRender off: ProLayout leaves document.title to the router (page title + brand).
      title={false}
      pageTitleRender={false}
      logo={false}
      // The brand is in the header in both nav modes: 'mix' (side menu) renders headerTitleRender,
      // 'top' (top menu) renders menuHeaderRender there instead.
      menuHeaderRender={nav.menuType === 'horizontal' ? brand : false}
      headerTitleRender={brand}
      layout={nav.menuType === 'horizontal' ? 'top' : 'mix'}
      splitMenus={false}
      fixSiderbar
      // The header (brand, business, account) stays in view in both nav modes while the page scrolls.
      fixedHeader
      // Below 1200 px the side menu starts folded (icons only, the user can unfold it), so lists get the width.
      breakpoint="xl"
      siderWidth={208}
      contentStyle={CONTENT_STYLE}
      route={route}
      location={location}
      menu={MENU}
      openKeys={nav.menuType === 'inline' ? nav.openKeys : undefined}
      onOpenChange={(keys) => Array.isArray(keys) && nav.setOpenKeys(keys as string[])}
      selectedKeys={selectedKeys}
      menuItemRender={menuItem}
      actionsRender={actions}
    >
      <Outlet />
    </ProLayout>
  );
});
