import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { MenuProps } from 'antd';
import type { MenuEntry } from '../menu';
import { iconFor } from '../icons';

type MenuItems = NonNullable<MenuProps['items']>;

/** A page entry's link: an external one opens in a new tab; `current` marks the page shown. */
export function entryLink(e: MenuEntry, current?: boolean): ReactNode {
  return e.href ? (
    <a href={e.href} target="_blank" rel="noreferrer">
      {e.name}
    </a>
  ) : (
    <Link to={e.path} aria-current={current ? 'page' : undefined}>
      {e.name}
    </Link>
  );
}

/** antd Menu items of the entries: a page is a link (an external one opens in a new tab), a group opens; icons on the first level. */
export function toItems(entries: MenuEntry[], depth = 0): MenuItems {
  return entries.map((e) => ({
    key: e.path,
    icon: depth === 0 ? iconFor(e.icon) : undefined,
    label: e.children ? e.name : entryLink(e),
    children: e.children ? toItems(e.children, depth + 1) : undefined,
  }));
}
