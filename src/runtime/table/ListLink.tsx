import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { linkKeepingListState } from './urlState';

/**
 * A row link of a list: a target that only adds query parameters to this page (a drawer's `?id=7`)
 * keeps the list state of the current URL; other targets are plain links (Back restores the list).
 */
export function ListLink({ to, children }: { to: string; children: ReactNode }) {
  const location = useLocation();
  return <Link to={linkKeepingListState(to, location)}>{children}</Link>;
}
