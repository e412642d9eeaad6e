import { Button, Dropdown, Space, Tag } from 'antd';
import { DownOutlined, LayoutOutlined, LogoutOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { flushSync } from 'react-dom';
import { useLocation, useNavigate } from 'react-router-dom';
import { observer } from 'mobx-react-lite';
import { api } from '../../services/request';
import { message } from '../feedback';
import { LazyPublicPage } from '../pages/lazy';
import { useStores } from '../context';
import { CHARGE_FORM_LABELS } from '../../shared/labels';
import { routesFile } from '../../schema/registry';
import { landingAfterSwitch } from '../nav/switchLanding';
import { maskPhone } from '../../shared/mask';
import { useTranslation } from '../i18n';


/** Header dropdown that switches the business at any time (both layouts). */
export const BusinessSwitch = observer(function BusinessSwitch() {
  const { user } = useStores();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const biz = user.currentBusiness;
  const items = user.businessList.map((b) => ({
    key: b.businessId,
    label: (
      <Space>
        {b.businessName}
        <Tag color={b.chargeForm === 'prepaid' ? 'blue' : 'gold'}>{CHARGE_FORM_LABELS[b.chargeForm]}</Tag>
        {b.businessId === biz?.businessId && <Tag>{t('header.current')}</Tag>}
      </Space>
    ),
  }));
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        selectable: true,
        selectedKeys: biz ? [biz.businessId] : [],
        onClick: ({ key }) => {
          if (key === biz?.businessId) return;
          user.selectBusiness(key);
          const next = user.currentBusiness;
          // Stay only where the new business may be: not on a page it cannot open, nor on the old one's records.
          const to = landingAfterSwitch(routesFile.routes, routesFile.defaultPath, location.pathname, location.search, { userType: next?.userType, servicePacks: next?.servicePacks ?? [] });
          if (to !== location.pathname + location.search) navigate(to);
          message.success(t('header.switchedTo', { name: next?.businessName ?? '' }));
        },
      }}
    >
      <a onClick={(e) => e.preventDefault()} title={t('header.switchBusiness')} data-testid="business-switch">
        <Space>
          <SwapOutlined />
          <span data-testid="current-business">{biz?.businessName ?? t('header.noBusiness')}</span>
          {biz && <Tag color={biz.chargeForm === 'prepaid' ? 'blue' : 'gold'}>{CHARGE_FORM_LABELS[biz.chargeForm]}</Tag>}
          <DownOutlined />
        </Space>
      </a>
    </Dropdown>
  );
});

/** Signs out on the gateway (best effort) and locally, then goes to sign-in. */
export function useLogout() {
  const stores = useStores();
  const { t } = useTranslation();
  const navigate = useNavigate();
  return async () => {
    try {
      await api.post('/api/auth/logout');
    } catch {
      /* signing out locally is what matters */
    }
    // Leave the guarded page first, so the sign-in guard does not add ?redirect= for it: with the sign-in
    // page's code loaded, the navigation renders at once instead of suspending while the sign-out lands.
    await LazyPublicPage.preload();
    flushSync(() => navigate('/login/index', { replace: true }));
    stores.logout();
    message.success(t('header.loggedOut'));
  };
}

/** Account menu (phone masked): nav style switch (menu layout only) and sign-out. */
export const AccountMenu = observer(function AccountMenu({ withNavSwitch }: { withNavSwitch?: boolean }) {
  const { user, nav } = useStores();
  const logout = useLogout();
  const { t } = useTranslation();
  const items = [
    ...(withNavSwitch ? [{ key: 'layout', icon: <LayoutOutlined />, label: nav.menuType === 'inline' ? t('header.topNav') : t('header.sideNav') }] : []),
    { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout') },
  ];
  return (
    <Space size="middle">
    {/* Opened by a click (or Enter), like the business switch: a menu that opens on hover closes when the
        pointer slips off it on the way to an item, and a keyboard could not open it at all. */}
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        onClick: ({ key }) => {
          if (key === 'logout') void logout();
          if (key === 'layout') nav.setMenuType(nav.menuType === 'inline' ? 'horizontal' : 'inline');
        },
      }}
    >
      {/* A real button: Enter and Space open the menu as a click does. */}
      <Button type="text" size="small" data-testid="account-menu">
        <Space>
          <UserOutlined />
          <span>{maskPhone(user.userTel)}</span>
          <DownOutlined />
        </Space>
      </Button>
    </Dropdown>
    </Space>
  );
});
