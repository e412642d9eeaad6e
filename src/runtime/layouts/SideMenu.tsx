import { memo, useCallback, useMemo, useState } from 'react';
import { Button, Layout, Menu, type MenuProps } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { observer } from 'mobx-react-lite';
import { routesFile } from '../../schema/registry';
import { openKeysFor, withGroupsOpen } from '../menu';
import { useStores } from '../context';
import { LAYOUT_HEADER_HEIGHT, SIDER_FOLD_BELOW, SIDER_FOLDED_WIDTH, SIDER_WIDTH } from '../table/sizing';
import { windowSize } from '../table/useWindowSize';

type Items = NonNullable<MenuProps['items']>;

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
 * shown selected, folded to icons below 1200 px or by its button. Folded, a group opens as a pop-up
 * that is not remembered as an open group.
 *
 * The groups of the page shown are open from the first render (the layout also stores them in the nav
 * store, after it): storing them then changes nothing the menu shows, and the menu is not drawn again
 * (a first list page drew it twice).
 */
export const SideMenu = observer(function SideMenu({ items, selectedKeys }: { items: Items; selectedKeys: string[] }) {
  const { nav } = useStores();
  const [folded, setFolded] = useState(() => windowSize().width < SIDER_FOLD_BELOW);
  const [popupKeys, setPopupKeys] = useState<string[]>([]);
  const selected = selectedKeys[0];
  const stored = nav.openKeys;
  const open = useMemo(() => withGroupsOpen(stored, selected ? openKeysFor(routesFile.routes, selected) : []), [stored, selected]);
  const openKey = open.join('\n');
  const openKeys = useMemo(() => open, [openKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const onOpenChange = useCallback((keys: string[]) => (folded ? setPopupKeys(keys) : nav.setOpenKeys(keys)), [folded, nav]);
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
        <StableMenu
          mode="inline"
          items={items}
          selectedKeys={selectedKeys}
          openKeys={folded ? popupKeys : openKeys}
          onOpenChange={onOpenChange}
          style={MENU_STYLE}
          // Unfolded, antd wraps each entry in a tooltip that never opens (its label is shown): one popup
          // trigger per entry, drawn twice at mount. Folded to icons, the tooltips show the labels.
          _internalDisableMenuItemTitleTooltip={!folded}
        />
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
