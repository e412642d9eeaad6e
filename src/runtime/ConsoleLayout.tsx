import { useEffect, useMemo } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Dropdown, Space, Tag } from 'antd';
import { message } from './feedback';
import { LogoutOutlined, SwapOutlined, UserOutlined, LayoutOutlined } from '@ant-design/icons';
import { ProLayout, type MenuDataItem } from '@ant-design/pro-components';
import { observer } from 'mobx-react-lite';
import { routesFile } from '../schema/registry';
import { api } from '../services/request';
import { useStores } from './context';
import { buildMenu, openKeysFor, type MenuEntry } from './menu';
import { iconFor } from './icons';

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

const brandHeader = (
  <Link to="/" style={{ fontWeight: 600, fontSize: 16, whiteSpace: 'nowrap' }}>
    {routesFile.brand.replace(/^[·\s]+/, '')}
  </Link>
);

/** The signed-in frame: ProLayout menu from the route schema, business switch, account menu. */
export const ConsoleLayout = observer(function ConsoleLayout() {
  const stores = useStores();
  const { user, nav } = stores;
  const location = useLocation();
  const navigate = useNavigate();
  const biz = user.currentBusiness;
  const menu = useMemo(
    () => toMenuData(buildMenu(routesFile.routes, { userType: biz?.userType, servicePacks: biz?.servicePacks ?? [] })),
    [biz],
  );

  useEffect(() => {
    nav.setSelectedKeys([location.pathname]);
    const open = openKeysFor(routesFile.routes, location.pathname);
    if (open.length && !open.every((k) => nav.openKeys.includes(k))) nav.setOpenKeys([...new Set([...nav.openKeys, ...open])]);
    if (nav.menuType === 'horizontal') nav.setHorizontalSelectedUrl(location.pathname);
  }, [location.pathname, nav]);

  const logout = async () => {
    try {
      await api.post('/api/auth/logout');
    } catch {
      /* signing out locally is what matters */
    }
    stores.logout();
    message.success('已退出登录');
    navigate('/login', { replace: true });
  };

  return (
    <ProLayout
      // With no title and pageTitleRender off, ProLayout leaves document.title alone: the router sets it
      // (page title + brand suffix), also for hidden pages the menu doesn't know.
      title={false}
      pageTitleRender={false}
      logo={false}
      menuHeaderRender={false}
      headerTitleRender={() => brandHeader}
      layout={nav.menuType === 'horizontal' ? 'top' : 'mix'}
      splitMenus={false}
      fixSiderbar
      route={{ path: '/', children: menu }}
      location={{ pathname: location.pathname }}
      menu={{ type: 'sub' }}
      openKeys={nav.menuType === 'inline' ? nav.openKeys : undefined}
      onOpenChange={(keys) => Array.isArray(keys) && nav.setOpenKeys(keys as string[])}
      selectedKeys={nav.selectedKeys}
      menuItemRender={(item, dom) =>
        item.isUrl ? (
          <a href={item.path} target="_blank" rel="noreferrer">{dom}</a>
        ) : (
          <Link to={item.path ?? '/'}>{dom}</Link>
        )
      }
      actionsRender={() => [
        <Link key="biz" to="/mine/business" title="切换企业">
          <Space>
            <SwapOutlined />
            <span data-testid="current-business">{biz?.businessName ?? '未选择企业'}</span>
            {biz && <Tag color={biz.chargeForm === 'prepaid' ? 'blue' : 'gold'}>{biz.chargeForm === 'prepaid' ? '预付费' : '后付费'}</Tag>}
          </Space>
        </Link>,
      ]}
      avatarProps={{
        icon: <UserOutlined />,
        size: 'small',
        title: user.userTel.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2'),
        render: (_, dom) => (
          <Dropdown
            menu={{
              items: [
                { key: 'layout', icon: <LayoutOutlined />, label: nav.menuType === 'inline' ? '切换为顶部导航' : '切换为侧边导航' },
                { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
              ],
              onClick: ({ key }) => {
                if (key === 'logout') void logout();
                if (key === 'layout') nav.setMenuType(nav.menuType === 'inline' ? 'horizontal' : 'inline');
              },
            }}
          >
            {dom}
          </Dropdown>
        ),
      }}
    >
      <Outlet />
    </ProLayout>
  );
});
