import { createContext, useContext, useMemo, type MouseEvent, type ReactNode } from 'react';
import { Link, useHref, useLocation, useNavigate } from 'react-router-dom';
import { linkKeepingListState } from './urlState';
import { consolePathOf } from '../nav/consoleLink';

interface RowLinks {
  location: { pathname: string; search: string };
  /** The console's base path ('' at the root). */
  base: string;
  onClick: (e: MouseEvent<HTMLAnchorElement>) => void;
}

const RowLinksContext = createContext<RowLinks | null>(null);

/**
 * What the row links of a page share (RouteView provides it around each page): the location, the base
 * path and one click handler that navigates inside the console. A list draws two links per row; as the
 * router's own `Link` each subscribed to the router and ran a dozen hooks and an effect of its own (60
 * per page of orders), as plain anchors they read this once.
 */
export function RowLinksProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const base = useHref('/').replace(/\/$/, '');
  const value = useMemo<RowLinks>(
    () => ({
      location,
      base,
      // As the router's Link: a plain left click navigates in the page; with a modifier key, another
      // button or another target the browser opens the href itself (new tab, window, download).
      onClick: (e) => {
        const a = e.currentTarget;
        const path = e.defaultPrevented ? undefined : consolePathOf(e, a, base);
        if (path === undefined) return;
        e.preventDefault();
        navigate(`${path}${a.search}${a.hash}`);
      },
    }),
    [location, base, navigate],
  );
  return <RowLinksContext.Provider value={value}>{children}</RowLinksContext.Provider>;
}

/** Outside RowLinksProvider (a table drawn elsewhere): the router's Link. */
function RouterListLink({ to, children }: { to: string; children: ReactNode }) {
  const location = useLocation();
  return <Link to={linkKeepingListState(to, location)}>{children}</Link>;
}

/**
 * A row link of a list: a target that only adds query parameters to this page (a drawer's `?id=7`)
 * keeps the list state of the current URL; other targets are plain links (Back restores the list).
 */
export function ListLink({ to, children }: { to: string; children: ReactNode }) {
  const links = useContext(RowLinksContext);
  if (!links) return <RouterListLink to={to}>{children}</RouterListLink>;
  return (
    <a href={`${links.base}${linkKeepingListState(to, links.location)}`} onClick={links.onClick}>
      {children}
    </a>
  );
}
