import { useEffect, useMemo } from 'react';
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

/** Layout group "menu": ProLayout with the side (or top) menu of the /main, /service and /account sections. */
export const MenuLayout = observer(function MenuLayout() {
  const { nav } = useStores();
  const location = useLocation();
  const ctx = useAccessContext();
  const menu = useMemo(() => toMenuData(buildMenu(menuRoutes, ctx)), [ctx.userType, ctx.servicePacks.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  const selected = selectedKeyFor(routesFile.routes, location.pathname);

  useEffect(() => {
    nav.setSelectedKeys(selected ? [selected] : []);
    const open = openKeysFor(routesFile.routes, location.pathname);
    if (open.length && !open.every((k) => nav.openKeys.includes(k))) nav.setOpenKeys([...new Set([...nav.openKeys, ...open])]);
    if (nav.menuType === 'horizontal') nav.setHorizontalSelectedUrl(location.pathname);
  }, [location.pathname, nav, selected]);

  return (
    <ProLayout
      // No title and pageTitleRender off: ProLayout leaves document.title to the router (page title + brand).
      title={false}
      pageTitleRender={false}
      logo={false}
      // The brand is in the header in both nav modes: 'mix' (side menu) renders headerTitleRender,
      // 'top' (top menu) renders menuHeaderRender there instead.
      menuHeaderRender={nav.menuType === 'horizontal' ? () => <Brand /> : false}
      headerTitleRender={() => <Brand />}
      layout={nav.menuType === 'horizontal' ? 'top' : 'mix'}
      splitMenus={false}
      fixSiderbar
      // The header (brand, business, account) stays in view in both nav modes while the page scrolls.
      fixedHeader
      // Below 1200 px the side menu starts folded (icons only, the user can unfold it), so lists get the width.
      breakpoint="xl"
      siderWidth={208}
      contentStyle={{ padding: '24px' }}
      route={{ path: '/', children: menu }}
      location={{ pathname: selected ?? location.pathname }}
      menu={{ type: 'sub' }}
      openKeys={nav.menuType === 'inline' ? nav.openKeys : undefined}
      onOpenChange={(keys) => Array.isArray(keys) && nav.setOpenKeys(keys as string[])}
      selectedKeys={nav.selectedKeys}
      menuItemRender={(item, dom) =>
        item.isUrl ? (
          <a href={item.path} target="_blank" rel="noreferrer">
            {dom}
          </a>
        ) : (
          <Link to={item.path ?? '/'}>{dom}</Link>
        )
      }
      actionsRender={() => [<BusinessSwitch key="biz" />, <AccountMenu key="account" withNavSwitch />]}
    >
      <Outlet />
    </ProLayout>
  );
});
