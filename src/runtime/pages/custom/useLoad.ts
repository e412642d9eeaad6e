import { useCallback, useEffect, useState } from 'react';
import { api, ApiError } from '../../../services/request';
import { notFoundMessage } from '../DetailNotFound';

export interface Load<T> {
  data?: T;
  error?: string;
  /** The gateway has no such record for this business (404): the page shows DetailNotFound. */
  notFound?: string;
  loading: boolean;
}

/** GETs a gateway URL (null = wait) and keeps a Chinese error message when it fails; `reload` fetches it again. */
export function useLoad<T>(url: string | null, what: string): Load<T> & { reload: () => void } {
  const [state, setState] = useState<Load<T>>({ loading: url !== null });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (url === null) return;
    let live = true;
    setState({ loading: true });
    api
      .get<T>(url)
      .then((data) => live && setState({ data, loading: false }))
      .catch((e: unknown) => {
        const detail = e instanceof ApiError && e.message ? `：${e.message}` : '';
        const notFound = notFoundMessage(e);
        if (live) setState({ error: `${what}加载失败${detail}`, notFound, loading: false });
      });
    return () => {
      live = false;
    };
  }, [url, what, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { ...state, reload };
}
