import { cloneElement, isValidElement, memo, type CSSProperties, type KeyboardEvent, type ReactElement } from 'react';
import type { MenuEntry } from '../menu';
import { iconFor } from '../icons';
import { entryLink } from './menuItems';

/** antd's indent per level of an inline menu. */
const INDENT = 24;

interface EntryProps {
  entry: MenuEntry;
  depth: number;
  selected: string | undefined;
  open: readonly string[];
  onToggle: (key: string) => void;
}

const holds = (e: MenuEntry, key: string | undefined): boolean => !!key && (e.path === key || !!e.children?.some((c) => holds(c, key)));
const classes = (...names: Array<string | false>): string => names.filter(Boolean).join(' ');

/** A first-level entry's icon, with the class antd's menu stylesheet places it by. */
function iconOf(e: MenuEntry, depth: number) {
  const icon = depth === 0 ? iconFor(e.icon) : undefined;
  return isValidElement(icon) ? cloneElement(icon as ReactElement<{ className?: string }>, { className: 'ant-menu-item-icon' }) : undefined;
}

function Group({ entry: e, depth, selected, open, onToggle }: EntryProps) {
  const isOpen = open.includes(e.path);
  const id = `side-nav:${e.path}`;
  const toggle = () => onToggle(e.path);
  const onKeyDown = (ev: KeyboardEvent) => {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    ev.preventDefault();
    toggle();
  };
  return (
    <li className={classes('ant-menu-submenu ant-menu-submenu-inline', isOpen && 'ant-menu-submenu-open', holds(e, selected) && 'ant-menu-submenu-selected')}>
      <div role="button" tabIndex={0} className="ant-menu-submenu-title" aria-expanded={isOpen} aria-controls={isOpen ? id : undefined} style={{ paddingLeft: INDENT * (depth + 1) }} onClick={toggle} onKeyDown={onKeyDown}>
        {iconOf(e, depth)}
        <span className="ant-menu-title-content">{e.name}</span>
        <i className="ant-menu-submenu-arrow" />
      </div>
      {isOpen && (
        <ul id={id} className="ant-menu ant-menu-sub ant-menu-inline">
          {e.children!.map((c) => (
            <Entry key={c.path} entry={c} depth={depth + 1} selected={selected} open={open} onToggle={onToggle} />
          ))}
        </ul>
      )}
    </li>
  );
}

function Entry(props: EntryProps) {
  const { entry: e, depth, selected } = props;
  if (e.children) return <Group {...props} />;
  const icon = iconOf(e, depth);
  const current = e.path === selected;
  return (
    <li className={classes('ant-menu-item', !icon && 'ant-menu-item-only-child', current && 'ant-menu-item-selected')} style={{ paddingLeft: INDENT * (depth + 1) }}>
      {icon}
      <span className="ant-menu-title-content">{entryLink(e, current)}</span>
    </li>
  );
}

/**
 * The unfolded side menu: a navigation list drawn with antd's inline-menu class names, so antd's
 * stylesheet draws it as the Menu component does, without the Menu component. A group is a disclosure
 * button (aria-expanded) whose entries are in the page only while it is open; a page is a link, the one
 * shown marked aria-current. Tab moves through them as through any links and buttons.
 *
 * The first list page after sign-in mounts the menu (the workbench has none), and antd's Menu mounts a
 * context provider per entry comparing its context, a hidden second copy of every entry to register key
 * paths, motion and overflow wrappers: without them that page's main-thread time at 4x CPU went from
 * 1,806 to 1,595 ms (docs/decisions.md, "The menu layout is antd's Layout and Menu"). Folded to icons,
 * the menu's entries open as pop-ups, which antd's Menu still draws (SideMenu).
 */
export const SideNav = memo(function SideNav({ entries, selected, open, onToggle, style }: { entries: MenuEntry[]; selected: string | undefined; open: readonly string[]; onToggle: (key: string) => void; style: CSSProperties }) {
  return (
    <ul className="ant-menu ant-menu-root ant-menu-inline ant-menu-light" style={style}>
      {entries.map((e) => (
        <Entry key={e.path} entry={e} depth={0} selected={selected} open={open} onToggle={onToggle} />
      ))}
    </ul>
  );
});
