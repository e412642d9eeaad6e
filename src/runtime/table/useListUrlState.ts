import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from './sizing';
import {
  listStateKey,
  readListState,
  stateFromRequest,
  toFormValues,
  writeListState,
  type ListUrlState,
  type FilterValue,
  type SortOrder,
  type UrlStateColumn,
} from './urlState';

export interface ListUrlStateApi {
  /** The state the table mounts with (read from the URL). */
  initial: ListUrlState;
  /** Changes when the URL was changed from outside (a link, the menu): remount the table with it. */
  mountKey: number;
  /** Search-form initial values of `initial`, by form field name (date ranges as [from, to]); empty after the first load. */
  formInitialValues: Record<string, FilterValue>;
  /** Records one request's params and sort in the URL (history.replace: Back leaves the list in this state). */
  write: (params: Record<string, unknown>, sort: Record<string, SortOrder | null | undefined> | undefined) => void;
}

/**
 * Keeps a list's page, page size, filters and sort in the URL query (see urlState.ts for the format).
 * Each request replaces the current history entry, so going to a detail and back, or a reload,
 * restores the list; a URL changed from outside remounts the table with the state it names.
 */
export function useListUrlState(schema: { columns: readonly UrlStateColumn[]; pageSize?: number }): ListUrlStateApi {
  const location = useLocation();
  const navigate = useNavigate();
  const defaultPageSize = schema.pageSize ?? DEFAULT_PAGE_SIZE;
  const fromUrl = useMemo(
    () => readListState(location.search, schema.columns, defaultPageSize),
    [location.search, schema.columns, defaultPageSize],
  );
  const urlKey = listStateKey(fromUrl);
  const written = useRef(urlKey);
  const [mounted, setMounted] = useState({ n: 0, state: fromUrl, loaded: false });
  const locationRef = useRef(location);
  locationRef.current = location;

  useEffect(() => {
    if (urlKey === written.current) return;
    written.current = urlKey;
    setMounted((m) => ({ n: m.n + 1, state: fromUrl, loaded: false }));
  }, [urlKey, fromUrl]);

  const write = useCallback<ListUrlStateApi['write']>(
    (params, sort) => {
      const state = stateFromRequest(params, sort, schema.columns, defaultPageSize);
      const key = listStateKey(state);
      // Only a list that mounted with filters has initial values to clear (a state change re-renders the
      // whole table, and an unfiltered list's first load has nothing to change).
      setMounted((m) => (m.loaded || Object.keys(m.state.filters).length === 0 ? m : { ...m, loaded: true }));
      if (key === written.current) return;
      written.current = key;
      const loc = locationRef.current;
      const search = writeListState(loc.search, state, schema.columns, defaultPageSize).toString();
      navigate({ pathname: loc.pathname, search: search ? `?${search}` : '', hash: loc.hash }, { replace: true, state: loc.state });
    },
    [navigate, schema.columns, defaultPageSize],
  );

  // Once loaded, the initial values are empty again: 重置 then clears the form instead of going back to the URL's filters.
  const initialValues = useMemo(() => (mounted.loaded ? {} : toFormValues(mounted.state, schema.columns)), [mounted, schema.columns]);

  return { initial: mounted.state, mountKey: mounted.n, formInitialValues: initialValues, write };
}
