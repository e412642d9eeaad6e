import { memo, useCallback, useMemo, useState } from 'react';
import { Button, Layout, Menu } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { observer } from 'mobx-react-lite';
import { routesFile } from '../../schema/registry';
import { openKeysFor, withGroupsOpen, type MenuEntry } from '../menu';
import { useStores } from '../context';
import { LAYOUT_HEADER_HEIGHT, SIDER_FOLD_BELOW, SIDER_FOLDED_WIDTH, SIDER_WIDTH } from '../table/sizing';
import { windowSize } from '../table/useWindowSize';
import { toItems } from './menuItems';
import { SideNav } from './SideNav';

/** antd's Menu, drawn again only when one of its props changes (its items, keys and handlers are kept stable below). */
const StableMenu = memo(Menu);

const SIDER_STYLE = {
  position: 'sticky',
  top: LAYOUT_HEADER_HEIGHT,
  height: `calc(100vh - ${LAYOUT_HEADER_HEIGHT}px)`,
  borderRight: '1px solid #f0f0f0',
} as const;
const SIDER_BODY = { display: 'flex', flexDirection: 'column', height: '100%' } as const;
const MENU_STYLE = { flex: 1, overflowY: 'auto', overflowX: 'hidden', borderInlineEnd: 'none' } as const;
const FOLD_STYLE = { margin: 8, alignSelf: 'flex-start' } as const;

/**
 * The side menu of the menu layout: the groups the nav store keeps open (spec: nav.openKeys), the entry
 * shown selected, folded to icons below 1200 px or by its button. Unfolded it is a navigation list
 * (SideNav); folded, antd's Menu, whose groups open as pop-ups that are not remembered as open groups.
 *
 * The groups of the page shown are open from the first render (the layout also stores them in the nav
 * store, after it): storing them then changes nothing the menu shows, and the menu is not drawn again.
 * A group of the page shown that the user closes stays closed until another page is shown.
 */
export const SideMenu = observer(function SideMenu({ entries, selected }: { entries: MenuEntry[]; selected: string | undefined }) {
  const { nav } = useStores();
  const [folded, setFolded] = useState(() => windowSize().width < SIDER_FOLD_BELOW);
  const [popupKeys, setPopupKeys] = useState<string[]>([]);
  const [closed, setClosed] = useState<{ selected?: string; keys: string[] }>({ keys: [] });
  const stored = nav.openKeys;
  const open = useMemo(() => {
    const dismissed = closed.selected === selected ? closed.keys : [];
    return withGroupsOpen(stored, selected ? openKeysFor(routesFile.routes, selected).filter((k) => !dismissed.includes(k)) : []);
  }, [stored, selected, closed]);
  const openKey = open.join('\n');
  const openKeys = useMemo(() => open, [openKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const onToggle = useCallback(
    (key: string) => {
      const closing = openKeys.includes(key);
      if (closing) setClosed((c) => ({ selected, keys: [...(c.selected === selected ? c.keys : []), key] }));
      nav.setOpenKeys(closing ? openKeys.filter((k) => k !== key) : [...openKeys, key]);
    },
    [openKeys, nav, selected],
  );
  const items = useMemo(() => (folded ? toItems(entries) : undefined), [folded, entries]);
  const selectedKeys = useMemo(() => (selected ? [selected] : []), [selected]);
  return (
    <Layout.Sider
      theme="light"
      width={SIDER_WIDTH}
      collapsedWidth={SIDER_FOLDED_WIDTH}
      collapsed={folded}
      // antd's xl breakpoint is SIDER_FOLD_BELOW (1200 px).
      breakpoint="xl"
      onBreakpoint={setFolded}
      trigger={null}
      style={SIDER_STYLE}
      data-testid="side-menu"
    >
      <nav aria-label="主菜单" style={SIDER_BODY}>
        {items ? (
          <StableMenu mode="inline" items={items} selectedKeys={selectedKeys} openKeys={popupKeys} onOpenChange={setPopupKeys} style={MENU_STYLE} />
        ) : (
          <SideNav entries={entries} selected={selected} open={openKeys} onToggle={onToggle} style={MENU_STYLE} />
        )}
        <Button
          type="text"
          aria-label={folded ? '展开菜单' : '收起菜单'}
          icon={folded ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={() => setFolded((f) => !f)}
          style={FOLD_STYLE}
        />
      </nav>
    </Layout.Sider>
  );
});
