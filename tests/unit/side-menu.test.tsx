// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { routesFile } from '../../src/schema/registry';
import { buildMenu, selectedKeyFor } from '../../src/runtime/menu';
import { SideMenu } from '../../src/runtime/layouts/SideMenu';
import { StoresContext } from '../../src/runtime/context';
import { RootStore } from '../../src/stores/root';
import { memoryStorage } from '../../src/stores/storage';
import { setWindowSize, useAntdDom } from './dom';

useAntdDom();

const M = '/main/online-insurance';
const CM = `${M}/cost-manage`;
const ORDERS = `${CM}/order-manage`;
const entries = buildMenu(routesFile.routes.filter((r) => r.layout === 'menu'), { userType: 'BUSINESS', servicePacks: ['attendance'] } as never);

function Page() {
  const { pathname } = useLocation();
  return <SideMenu entries={entries} selected={selectedKeyFor(routesFile.routes, pathname)} />;
}

function open(at: string) {
  setWindowSize(1440, 900);
  const store = new RootStore(memoryStorage());
  render(
    <StoresContext.Provider value={store}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path="*" element={<Page />} />
        </Routes>
      </MemoryRouter>
    </StoresContext.Provider>,
  );
  return { store, nav: () => within(screen.getByRole('navigation', { name: '主菜单' })) };
}

describe('the side menu (src/runtime/layouts/SideMenu.tsx, SideNav.tsx)', () => {
  it("shows the page's groups open and the page as the current link, drawn with antd's inline-menu classes", () => {
    const { nav } = open(ORDERS);
    const link = nav().getByRole('link', { name: '订单管理' });
    expect(link.getAttribute('href')).toBe(ORDERS);
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(link.closest('li')!.className).toContain('ant-menu-item-selected');
    expect(nav().getByRole('button', { name: /签约投保/ }).getAttribute('aria-expanded')).toBe('true');
    expect(nav().getByRole('button', { name: '费用管理' }).getAttribute('aria-expanded')).toBe('true');
    expect(nav().getByRole('button', { name: '费用管理' }).closest('li')!.className).toContain('ant-menu-submenu-selected');
    // A closed group's entries are not in the page.
    expect(nav().getByRole('button', { name: /服务中心/ }).getAttribute('aria-expanded')).toBe('false');
    expect(nav().queryByRole('link', { name: '支付管理' })).toBeNull();
    expect(nav().getAllByRole('list')[0].className).toBe('ant-menu ant-menu-root ant-menu-inline ant-menu-light');
  });

  it('opens and closes a group by click or key, keeping the open groups in the nav store', () => {
    const { store, nav } = open(ORDERS);
    const service = nav().getByRole('button', { name: /服务中心/ });
    fireEvent.click(service);
    expect(service.getAttribute('aria-expanded')).toBe('true');
    expect(store.nav.openKeys).toContain('/service/service-center');
    expect(nav().getByRole('button', { name: '理赔管理' }).getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(service, { key: 'Enter' });
    expect(service.getAttribute('aria-expanded')).toBe('false');
    expect(store.nav.openKeys).not.toContain('/service/service-center');
    // The group of the page shown closes too, and stays closed while that page is shown.
    fireEvent.keyDown(nav().getByRole('button', { name: '费用管理' }), { key: ' ' });
    expect(nav().getByRole('button', { name: '费用管理' }).getAttribute('aria-expanded')).toBe('false');
    expect(nav().queryByRole('link', { name: '订单管理' })).toBeNull();
  });

  it('navigates by its links and marks the page it went to', () => {
    const { store, nav } = open(ORDERS);
    store.nav.setOpenKeys([M, CM]); // as the menu layout stores them
    fireEvent.click(nav().getByRole('link', { name: '投保记录' }));
    expect(nav().getByRole('link', { name: '投保记录' }).getAttribute('aria-current')).toBe('page');
    expect(nav().getByRole('link', { name: '订单管理' }).getAttribute('aria-current')).toBeNull();
  });

  it("folded to icons, is antd's Menu, whose groups open as pop-ups", () => {
    const { nav } = open(ORDERS);
    fireEvent.click(screen.getByRole('button', { name: '收起菜单' }));
    expect(nav().getByRole('menu').className).toContain('ant-menu-inline-collapsed');
    expect(nav().queryByRole('link', { name: '订单管理' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '展开菜单' }));
    expect(nav().queryByRole('menu')).toBeNull();
    expect(nav().getByRole('link', { name: '订单管理' }).getAttribute('aria-current')).toBe('page');
  });
});
